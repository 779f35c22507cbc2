/**
 * The confirm step's options with what recognition found first: the uploader's typed rows and the tracks recognised
 * in the mix are both in play order, so they are aligned in order. Walking the rows, each takes the earliest
 * recognised track, not yet taken by an earlier row, that is among its candidates, and that candidate moves to the
 * front (the option the confirm step preselects). Rows none of whose candidates were recognised keep their order.
 */
export function preferRecognised<T extends { id: string }>(rows: readonly (readonly T[])[], recognised: readonly string[]): T[][] {
  let next = 0;
  return rows.map((candidates) => {
    let best = -1;
    for (const candidate of candidates) {
      const at = recognised.indexOf(candidate.id, next);
      if (at >= 0 && (best < 0 || at < best)) best = at;
    }
    if (best < 0) return [...candidates];
    next = best + 1;
    const chosen = recognised[best];
    const first = candidates.find((candidate) => candidate.id === chosen) as T;
    return [first, ...candidates.filter((candidate) => candidate !== first)];
  });
}
