/**
 * The search vocabulary in memory (docs/search.md#how-it-finds): every indexed word with its document count, found by
 * the deletion keys of a typed word (typos, SymSpell as the catalogue's) and by its start (typing). Kept in the API
 * process rather than as a table of keys: a key table is most of what building the index costs and one more statement
 * per search, while the keys of 200,000 words fit in about 30 MB of typed arrays.
 *
 * Keys are stored as numbers: a 31-bit hash of the key times SLOTS plus the word's slot, sorted, so the words of one
 * key are one range found by binary search. A hash may collide; the caller checks every word found against the typed
 * word (typedWordMatch), so a collision costs a comparison, never a wrong match.
 */
import { deletionKeys } from '../tracks/index.js';
import { MIN_PREFIX, typedWordMatch } from './search-score.js';

export interface VocabularyWord {
  id: number;
  word: string;
  df: number;
}

/** Words one index holds at most (the slot is the low 22 bits of a stored key). */
const SLOTS = 2 ** 22;
/** Keys of new words kept in a map until they are merged into the sorted array (merging costs a pass over it). */
const MERGE_KEYS_AT = 20_000;
/** New words kept unsorted until they are merged into the word order. */
const MERGE_WORDS_AT = 2_000;
/** Words in word order looked through for one typed start, and the commonest of them kept. */
const PREFIX_SCAN = 2000;
const PREFIX_WORDS = 30;
/** The least match a vocabulary word needs to stand for a typed word (two typos in a long word). */
const VARIANT_MATCH = 0.6;

/** FNV-1a over UTF-16 code units, to 31 bits. */
function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 1;
}

/** Merges two ascending arrays into one. */
function mergeSorted(a: Float64Array, b: Float64Array): Float64Array {
  const merged = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) merged[k++] = (a[i] as number) <= (b[j] as number) ? (a[i++] as number) : (b[j++] as number);
  while (i < a.length) merged[k++] = a[i++] as number;
  while (j < b.length) merged[k++] = b[j++] as number;
  return merged;
}

/** The vocabulary's words, their deletion keys and their order (pure; SearchVocabulary loads and refreshes it). */
export class VocabularyIndex {
  private readonly ids: number[] = [];
  private readonly texts: string[] = [];
  private readonly counts: number[] = [];
  private readonly slotOfId = new Map<number, number>();
  private keys: Float64Array = new Float64Array(0);
  private readonly recentKeys = new Map<number, number[]>();
  private recentKeyCount = 0;
  /** Slots in word order, and the slots added since (unsorted). */
  private order: Int32Array = new Int32Array(0);
  private recentSlots: number[] = [];

  get size(): number {
    return this.ids.length;
  }

  /** Adds words, or updates the document count of words already held. */
  add(rows: readonly VocabularyWord[]): void {
    const fresh: number[] = [];
    for (const row of rows) {
      const known = this.slotOfId.get(row.id);
      if (known !== undefined) {
        this.counts[known] = row.df;
        continue;
      }
      const slot = this.ids.length;
      if (slot >= SLOTS) throw new Error(`The search vocabulary holds at most ${SLOTS} words`);
      this.ids.push(row.id);
      this.texts.push(row.word);
      this.counts.push(row.df);
      this.slotOfId.set(row.id, slot);
      this.recentSlots.push(slot);
      for (const key of deletionKeys(row.word)) fresh.push(hashKey(key) * SLOTS + slot);
    }
    if (fresh.length + this.recentKeyCount >= MERGE_KEYS_AT) this.mergeKeys(fresh);
    else {
      for (const stored of fresh) {
        const hash = Math.floor(stored / SLOTS);
        const slots = this.recentKeys.get(hash);
        if (slots) slots.push(stored % SLOTS);
        else this.recentKeys.set(hash, [stored % SLOTS]);
      }
      this.recentKeyCount += fresh.length;
    }
    if (this.recentSlots.length >= MERGE_WORDS_AT) this.mergeOrder();
  }

  private mergeKeys(fresh: number[]): void {
    const added = new Float64Array(fresh.length + this.recentKeyCount);
    added.set(fresh);
    let at = fresh.length;
    for (const [hash, slots] of this.recentKeys) for (const slot of slots) added[at++] = hash * SLOTS + slot;
    added.sort();
    this.keys = mergeSorted(this.keys, added);
    this.recentKeys.clear();
    this.recentKeyCount = 0;
  }

  private mergeOrder(): void {
    const byText = (a: number, b: number) => {
      const x = this.texts[a] as string;
      const y = this.texts[b] as string;
      return x < y ? -1 : x > y ? 1 : 0;
    };
    const added = this.recentSlots.sort(byText);
    const merged = new Int32Array(this.order.length + added.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.order.length && j < added.length) {
      merged[k++] = byText(this.order[i] as number, added[j] as number) <= 0 ? (this.order[i++] as number) : (added[j++] as number);
    }
    while (i < this.order.length) merged[k++] = this.order[i++] as number;
    while (j < added.length) merged[k++] = added[j++] as number;
    this.order = merged;
    this.recentSlots = [];
  }

  /** Slots of the words holding any of these deletion keys (and a few whose key only shares a hash). */
  private byKeys(keys: readonly string[], into: Set<number>): void {
    for (const key of keys) {
      const hash = hashKey(key);
      const low = hash * SLOTS;
      let lo = 0;
      let hi = this.keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((this.keys[mid] as number) < low) lo = mid + 1;
        else hi = mid;
      }
      for (let at = lo; at < this.keys.length && (this.keys[at] as number) < low + SLOTS; at += 1)
        into.add((this.keys[at] as number) - low);
      for (const slot of this.recentKeys.get(hash) ?? []) into.add(slot);
    }
  }

  /** The commonest of the first words (in word order) that start with `start`. */
  private startingWith(start: string, into: Set<number>): void {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.texts[this.order[mid] as number] as string) < start) lo = mid + 1;
      else hi = mid;
    }
    const found: number[] = [];
    for (let at = lo; at < this.order.length && found.length < PREFIX_SCAN; at += 1) {
      const slot = this.order[at] as number;
      if (!(this.texts[slot] as string).startsWith(start)) break;
      found.push(slot);
    }
    for (const slot of this.recentSlots) if ((this.texts[slot] as string).startsWith(start)) found.push(slot);
    found.sort((a, b) => (this.counts[b] as number) - (this.counts[a] as number));
    for (const slot of found.slice(0, PREFIX_WORDS)) into.add(slot);
  }

  /**
   * The vocabulary words each typed word may stand for: within its typo budget (the deletion keys of every typed word
   * are looked up together, so a word found for one may stand for another), and for the last typed word the
   * commonest words it starts.
   */
  variants(typed: readonly string[]): VocabularyWord[][] {
    const pool = new Set<number>();
    this.byKeys([...new Set(typed.flatMap((word) => deletionKeys(word)))], pool);
    const last = typed.at(-1) ?? '';
    if (last.length >= MIN_PREFIX) this.startingWith(last, pool);
    const found = [...pool].map((slot) => ({
      id: this.ids[slot] as number,
      word: this.texts[slot] as string,
      df: this.counts[slot] as number,
    }));
    return typed.map((word, index) => found.filter((row) => typedWordMatch(word, row.word, index === typed.length - 1) >= VARIANT_MATCH));
  }
}

/** Rows read per statement while loading (keeps each result small). */
const LOAD_PAGE = 50_000;
/** How often document counts are read again (they only order variants, so a minute late is fine). */
const COUNTS_EVERY_MS = 60_000;

/**
 * The vocabulary of this process, loaded on first use and kept fresh: the indexer announces new words
 * (`NOTIFY search_words`, sent when its transaction commits) and every instance then reads the words added since
 * (`refresh`); document counts are read again every minute.
 */
export class SearchVocabulary {
  private readonly index = new VocabularyIndex();
  private loading: Promise<VocabularyIndex> | null = null;
  private refreshing: Promise<void> | null = null;
  private again = false;
  private lastId = 0;
  /** Read from here on at the next refresh (besides the words after `lastId`). */
  private from = Number.POSITIVE_INFINITY;
  private countsAt = 0;

  constructor(private readonly read: <T extends object>(sql: string, params: unknown[]) => Promise<T[]>) {}

  /** The vocabulary, loaded on first use. */
  async ready(): Promise<VocabularyIndex> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = null;
      throw error;
    });
    return this.loading;
  }

  private async load(): Promise<VocabularyIndex> {
    this.lastId = await this.readFrom(0);
    this.countsAt = Date.now();
    return this.index;
  }

  /** Reads the words after id `after`, `LOAD_PAGE` at a time (the counts of words already held are updated); the last id. */
  private async readFrom(after: number): Promise<number> {
    let last = after;
    for (;;) {
      const rows = await this.read<VocabularyWord>('select id, word, df from search_word where id > ? order by id limit ?', [
        last,
        LOAD_PAGE,
      ]);
      this.index.add(rows);
      last = rows.at(-1)?.id ?? last;
      if (rows.length < LOAD_PAGE) return last;
    }
  }

  /**
   * Brings a loaded vocabulary up to date, one read at a time: the words after the last one read, or from `firstId` on
   * (a notification names the first word its transaction added, since a concurrent transaction may commit a lower id
   * later than a higher one); every minute all of them, for their counts.
   */
  async refresh(firstId?: number): Promise<void> {
    if (!this.loading) return;
    if (firstId !== undefined) this.from = Math.min(this.from, firstId - 1);
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      await this.loading;
      do {
        this.again = false;
        const counts = Date.now() - this.countsAt >= COUNTS_EVERY_MS;
        if (counts) this.countsAt = Date.now();
        const from = counts ? 0 : Math.min(this.from, this.lastId);
        this.from = Number.POSITIVE_INFINITY;
        this.lastId = Math.max(this.lastId, await this.readFrom(from));
      } while (this.again);
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }
}
