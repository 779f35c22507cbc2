/**
 * Typo rules (pure). The budget by word length follows Meilisearch's defaults (no typo below 5 letters, one from 5,
 * two from 9; Typesense's `min_len_1typo`/`min_len_2typo` work the same way), and a swap of two neighbouring letters
 * counts as one typo (Damerau's optimal string alignment distance).
 */

/** Typos allowed in a word of `length` letters. */
export const typoBudget = (length: number): number => (length >= 9 ? 2 : length >= 5 ? 1 : 0);

/**
 * Edit distance with adjacent transpositions (optimal string alignment), or `max + 1` as soon as it must exceed `max`
 * (the scorer only asks whether two words are within a budget).
 */
export function typoDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  let before = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, index) => index);
  let current = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] as number) + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length] as number, max + 1);
}

/**
 * Every string reached from `word` by deleting up to `depth` letters, the word included (SymSpell). Two words within
 * edit distance d of each other (a swap included) share one of these when each side deletes up to its budget; the
 * scorer then checks the real distance.
 */
export function deletionKeys(word: string, depth = typoBudget(word.length)): string[] {
  const keys = new Set<string>([word]);
  let layer = [word];
  for (let level = 0; level < depth; level += 1) {
    const next: string[] = [];
    for (const item of layer) {
      if (item.length <= 1) continue;
      for (let index = 0; index < item.length; index += 1) {
        const key = item.slice(0, index) + item.slice(index + 1);
        if (!keys.has(key)) {
          keys.add(key);
          next.push(key);
        }
      }
    }
    layer = next;
  }
  return [...keys];
}
