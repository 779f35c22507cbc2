/**
 * Streaming catalogue import: JSON lines or CSV, read record by record and written in batches (by external id, so a
 * second import updates, never duplicates). A bad row is refused on its own, with its line and reason; the rest land.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { type CatalogueInput, parseCatalogueRow, RefusedRow } from './catalogue.inputs.js';
import type { CatalogueService } from './catalogue.service.js';

export type ImportFormat = 'jsonl' | 'csv';

export interface ImportProgress {
  /** Records read so far (header excluded). */
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
}

export interface ImportSummary extends ImportProgress {
  /** The first refused rows (at most 1,000 kept): line number in the file and reason. */
  refusedRows: { line: number; reason: string }[];
  seconds: number;
}

export interface ImportOptions {
  batchSize?: number;
  /** Called after every batch. */
  onProgress?: (progress: ImportProgress) => void;
}

/** Longest record accepted (a line of JSON, or a CSV record): anything longer is refused without being parsed. */
export const MAX_RECORD_CHARS = 64 * 1024;
const KEPT_REFUSALS = 1000;

/** The format of a file by its name: .csv is CSV; .jsonl, .ndjson and .json are JSON lines. */
export function formatOf(path: string): ImportFormat | null {
  const lower = path.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson') || lower.endsWith('.json')) return 'jsonl';
  return null;
}

interface RawRecord {
  line: number;
  value?: unknown;
  error?: string;
}

async function* chunks(input: Readable | AsyncIterable<string | Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of input) yield typeof chunk === 'string' ? chunk : decoder.write(chunk);
  const rest = decoder.end();
  if (rest) yield rest;
}

/** JSON lines: one object per line; blank lines are skipped. */
async function* jsonLines(input: Readable | AsyncIterable<string | Buffer>): AsyncGenerator<RawRecord> {
  let buffer = '';
  let line = 0;
  let skipping = false;
  const parse = (text: string): RawRecord => {
    try {
      return { line, value: JSON.parse(text) };
    } catch {
      return { line, error: 'not valid JSON' };
    }
  };
  for await (const chunk of chunks(input)) {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      line += 1;
      const text = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (skipping) {
        skipping = false;
        yield { line, error: `longer than ${MAX_RECORD_CHARS} characters` };
      } else if (text) yield parse(text);
      newline = buffer.indexOf('\n');
    }
    if (buffer.length > MAX_RECORD_CHARS) {
      // A line that never ends: drop what was read of it and refuse it when its end comes.
      skipping = true;
      buffer = '';
    }
  }
  line += 1;
  if (skipping) yield { line, error: `longer than ${MAX_RECORD_CHARS} characters` };
  else if (buffer.trim()) yield parse(buffer.trim());
}

/** CSV (RFC 4180: quoted fields may hold commas, quotes doubled, newlines); the first record names the columns. */
async function* csvRecords(input: Readable | AsyncIterable<string | Buffer>): AsyncGenerator<RawRecord> {
  let header: string[] | null = null;
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let recordLine = 1;
  let size = 0;
  let tooLong = false;
  let first = true;
  const finish = (): RawRecord | null => {
    fields.push(field);
    const record = fields;
    const at = recordLine;
    const long = tooLong;
    fields = [];
    field = '';
    size = 0;
    tooLong = false;
    if (record.length === 1 && record[0] === '') return null;
    if (!header) {
      header = record.map((name) => name.trim().toLowerCase());
      return null;
    }
    if (long) return { line: at, error: `longer than ${MAX_RECORD_CHARS} characters` };
    if (record.length !== header.length) return { line: at, error: `has ${record.length} fields, the header has ${header.length}` };
    const value: Record<string, string> = {};
    header.forEach((name, index) => {
      value[name] = record[index] ?? '';
    });
    return { line: at, value };
  };
  for await (let chunk of chunks(input)) {
    if (first) {
      chunk = chunk.replace(/^\uFEFF/, '');
      first = false;
    }
    for (let index = 0; index < chunk.length; index += 1) {
      const char = chunk[index] as string;
      if (char === '\n') line += 1;
      size += 1;
      if (size > MAX_RECORD_CHARS) {
        tooLong = true;
        field = '';
      }
      if (quoted) {
        if (char === '"') {
          quoted = false;
          afterQuote = true;
        } else if (!tooLong) field += char;
        continue;
      }
      if (char === '"') {
        if (afterQuote && !tooLong) field += '"';
        quoted = true;
        afterQuote = false;
        continue;
      }
      afterQuote = false;
      if (char === ',') {
        fields.push(field);
        field = '';
      } else if (char === '\n') {
        const record = finish();
        recordLine = line;
        if (record) yield record;
      } else if (char !== '\r' && !tooLong) field += char;
    }
  }
  const record = finish();
  if (record) yield record;
}

/** Reads `input` as `format` and writes its tracks through `service`, refusing bad rows one by one. */
export async function importCatalogue(
  service: CatalogueService,
  input: Readable | AsyncIterable<string | Buffer>,
  format: ImportFormat,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = performance.now();
  const batchSize = options.batchSize ?? 1000;
  const summary: ImportSummary = { rows: 0, created: 0, updated: 0, unchanged: 0, refused: 0, refusedRows: [], seconds: 0 };
  const refuse = (line: number, reason: string) => {
    summary.refused += 1;
    if (summary.refusedRows.length < KEPT_REFUSALS) summary.refusedRows.push({ line, reason });
  };
  let batch: { line: number; input: CatalogueInput }[] = [];
  const keys = new Set<string>();
  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    keys.clear();
    try {
      const written = await service.write(current.map((item) => item.input));
      summary.created += written.created;
      summary.updated += written.updated;
      summary.unchanged += written.unchanged;
    } catch {
      // One row the database refused spoils its batch: write them one by one to find it.
      for (const item of current) {
        try {
          const written = await service.write([item.input]);
          summary.created += written.created;
          summary.updated += written.updated;
          summary.unchanged += written.unchanged;
        } catch (error) {
          refuse(
            item.line,
            `the database refused it: ${error instanceof Error ? error.message.split('\n')[0]?.slice(0, 200) : String(error)}`,
          );
        }
      }
    }
    options.onProgress?.({ ...summary });
  };
  for await (const record of format === 'csv' ? csvRecords(input) : jsonLines(input)) {
    summary.rows += 1;
    if (record.error) {
      refuse(record.line, record.error);
      continue;
    }
    let parsed: CatalogueInput;
    try {
      parsed = parseCatalogueRow(record.value);
    } catch (error) {
      if (!(error instanceof RefusedRow)) throw error;
      refuse(record.line, error.message);
      continue;
    }
    // The same track twice in one batch: the earlier one is written first, so the later one updates it.
    const key = `${parsed.source}\u0000${parsed.externalId}`;
    if (keys.has(key)) await flush();
    keys.add(key);
    batch.push({ line: record.line, input: parsed });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}
