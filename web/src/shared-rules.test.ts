import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEED_MAX_RADIUS_KM, TRACKLIST_MAX, TRACKLIST_MIN } from '@mixcrate/api/domain';
import * as rules from '@mixcrate/api/rules';
import { describe, expect, it } from 'vitest';

/**
 * The rules the server applies are the web's only through `@mixcrate/api/rules` (and the zod schemas built on them):
 * a page that types a limit, a size or a rule's words out again would drift from the server unseen. This scans the
 * web's own source (not tests, not generated code) for them.
 */

const SOURCE_DIR = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'gql' || entry.name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every byte limit, written with or without digit separators (314572800, 314_572_800, 314,572,800). */
const BYTE_LIMITS = [rules.MP3_RULE, rules.COVER_RULE, rules.PROFILE_IMAGE_RULE].map(({ maxBytes }) => maxBytes);
const bytesPattern = (bytes: number) => new RegExp(`(?<![\\d_,.])${[...String(bytes)].join('[_,]?')}(?![\\d_,])`);

/** The numbers a form or a schema would restate: lengths, bounds, counts. */
const RULE_NUMBERS = new Set([
  rules.MIX_TITLE_MAX,
  rules.TRACK_TITLE_MAX,
  rules.TRACK_CREATOR_MAX,
  rules.BIO_MAX,
  rules.DISPLAY_NAME_MAX,
  rules.EMAIL_MAX,
  rules.EARNINGS_CREATOR_MAX,
  rules.BETA_CODE.maxLength,
  rules.PASSWORD_RULE.minLength,
  rules.PASSWORD_RULE.maxLength,
  rules.USER_NAME_RULE.minLength,
  rules.USER_NAME_RULE.maxLength,
  rules.LOCATION_RULE.latitude.limit,
  rules.LOCATION_RULE.longitude.limit,
  TRACKLIST_MIN,
  TRACKLIST_MAX,
  FEED_MAX_RADIUS_KM,
]);

/** Where a number is a limit: an input's length or range attribute, or a schema's bound. */
const LIMIT_POSITIONS = [
  /\b(?:maxLength|minLength)=\{\s*(-?[\d_.]+)\s*\}/g,
  /\b(?:min|max|step)=\{\s*(-?[\d_.]+)\s*\}/g,
  /(?<!Math)\.(?:min|max|length)\(\s*(-?[\d_.]+)\s*[,)]/g,
];

/** The rules' words (messages, hints, accept lists): any string in the module long enough not to be a common word. */
function ruleWords(value: unknown): string[] {
  if (typeof value === 'string') return value.length >= 10 ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(ruleWords);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(ruleWords);
  return [];
}
const RULE_WORDS = [...new Set(ruleWords(Object.values(rules)))];

/** What one source text restates, as readable findings. */
function restated(text: string): string[] {
  const findings: string[] = [];
  for (const bytes of BYTE_LIMITS) if (bytesPattern(bytes).test(text)) findings.push(`the byte limit ${bytes}`);
  for (const pattern of LIMIT_POSITIONS) {
    for (const [written, number] of text.matchAll(pattern)) {
      const value = Math.abs(Number(number.replaceAll('_', '')));
      // A length attribute always names its rule; a range or a schema bound only when it is one of the rules' numbers.
      if (written.includes('Length=') || RULE_NUMBERS.has(value)) findings.push(`the limit ${written.trim()}`);
    }
  }
  for (const words of RULE_WORDS) if (text.includes(words)) findings.push(`the rule's words "${words}"`);
  return findings;
}

describe('rules the web shares with the server are written once (api/src/shared/rules.ts)', () => {
  it('finds the restatements it looks for', () => {
    expect(restated('<input maxLength={120} />')).toEqual(['the limit maxLength={120}']);
    expect(restated('const MAX = 314_572_800;')).toEqual(['the byte limit 314572800']);
    expect(restated('if (file.size >= 5242880) return;')).toEqual(['the byte limit 5242880']);
    expect(restated('// under 2,000,000 bytes')).toEqual(['the byte limit 2000000']);
    expect(restated("z.number().min(-90, 'x').max(90, 'x')")).toEqual(['the limit .min(-90,', 'the limit .max(90,']);
    expect(restated('<input type="range" min={-180} max={180} step={0.05} />')).toEqual(['the limit min={-180}', 'the limit max={180}']);
    expect(restated("setError('File too large (max. 300MB)')")).toEqual([`the rule's words "File too large (max. 300MB)"`]);
    expect(restated('<p>.jpg, .png or .gif, up to 2MB</p>')).toEqual([`the rule's words ".jpg, .png or .gif, up to 2MB"`]);
    // Not limits: a player's volume range, a timer, an image's size, a number that is no rule's.
    expect(restated('<input type="range" min={0} max={1} /> setTimeout(done, 2000); <img width={120} />')).toEqual([]);
  });

  it('no web source types a limit, a size or a rule message out again', () => {
    const files = sourceFiles(SOURCE_DIR);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      restated(readFileSync(file, 'utf8')).map((finding) => `${relative(SOURCE_DIR, file)}: ${finding}`),
    );
    expect(found).toEqual([]);
  });
});
