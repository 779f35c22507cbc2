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
  if (rows[0].length < width) for (let index = 0; index < 3; index += 1) rows[index] = new Int32Array(width * 2);
  let before = rows[0];
  let previous = rows[1];
  let current = rows[2];
  for (let j = 0; j < width; j += 1) previous[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let rowMin = i;
    const letter = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j += 1) {
      const cost = letter === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && letter === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        value = Math.min(value, before[j - 2] + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length], max + 1);
}

// Rows reused by every call (words are at most 32 letters; grown when a longer one comes).
const rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Every string reached from `word` by deleting up to its typo budget of letters, the word included (SymSpell). Two words within
 * edit distance d of each other (a swap included) share one of these when each side deletes up to its budget; the
 * scorer then checks the real distance.
 */
export function deletionKeys(word: string): string[] {
  const keys = new Set<string>([word]);
  let layer = [word];
  // The budget leaves at least four letters (one deletion from five, two from nine), so no key is ever empty.
  const depth = typoBudget(word.length);
  for (let level = 0; level < depth; level += 1) {
    const next: string[] = [];
    for (const item of layer) {
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
