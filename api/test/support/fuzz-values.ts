import fc from 'fast-check';

/**
 * Two kinds of hostile input. `unstorable` values are wrong wherever they land: text PostgreSQL cannot store (NUL,
 * unpaired surrogates), numbers past every bound, shapes no field takes, malformed bodies. Nothing may change the data.
 * `odd` values may be right somewhere (a negative number, a far date, a long or strange text, a boolean): a request
 * may then succeed, so only row counts are compared, but it must still never be a 5xx.
 */
export type Pass = 'unstorable' | 'odd';
export const PASSES: Pass[] = ['unstorable', 'odd'];

/** The wire names the routes read (docs/public-api.md#wire-names, src/rest/), the GraphQL request's own fields, and a few strays. */
export const WIRE_NAMES = [
  '_id',
  'bio',
  'code',
  'cover',
  'creators',
  'current_mix',
  'current_mix_pos',
  'display_name',
  'email',
  'end',
  'extensions',
  'format',
  'from_point',
  'genre',
  'has_opted_in',
  'id',
  'is_agreed_to_conduct',
  'is_manual',
  'latitude',
  'limit',
  'location',
  'longitude',
  'maxheight',
  'maxwidth',
  'mix_id',
  'mix_id_to_exclude',
  'mp3',
  'name',
  'newPassword',
  'oldPassword',
  'operationName',
  'page',
  'password',
  'profile_image',
  'query',
  'search_radius',
  'searchString',
  'start',
  'title',
  'token',
  'trackId',
  'trackIds',
  'tracks',
  'url',
  'user_name',
  'user_type',
  'userId',
  'uuid',
  'variables',
];

const fieldName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WIRE_NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const UNSTORABLE_PIECES = ['\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF'];

/** Text with a NUL or an unpaired surrogate somewhere in it, plausible text around it. */
export const unstorableText = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFF',
    '\uDC00\uD800',
    'member\u0000@example.com',
    'Mixcrate1!\u0000',
    '00000000-0000-4000-8000-000000000000\u0000',
    '2024-01-01T00:00:00Z\u0000',
    'house\uD800',
  ),
  fc
    .tuple(fc.string({ maxLength: 30 }), fc.constantFrom(...UNSTORABLE_PIECES), fc.string({ maxLength: 30 }))
    .map(([before, piece, after]) => before + piece + after),
);

const unstorableLeaf = fc.oneof(
  { weight: 6, arbitrary: unstorableText },
  { weight: 1, arbitrary: fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER * 1e6) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({}, [], [[]], { $gt: '' }) },
);

/** A JSON value every leaf of which is unstorable or of a shape no field takes. */
export const unstorableValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    { weight: 5, arbitrary: unstorableLeaf },
    { weight: 1, arbitrary: fc.array(tie('value'), { minLength: 1, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(fieldName, tie('value'), { minKeys: 1, maxKeys: 3 }) },
  ),
})).value;

const deepArray = (depth: number): unknown => (depth === 0 ? [] : [deepArray(depth - 1)]);
const cursor = (sortKey: unknown) => Buffer.from(JSON.stringify(sortKey)).toString('base64url');

/** Page cursors shaped like the server's own (a timestamp and an id, or an offset) holding values out of every range. */
export const FORGED_CURSORS = [
  cursor(['2024-13-45T99:99:99.000000Z', '00000000-0000-4000-8000-000000000000']),
  cursor(['0000-01-01T00:00:00.000000Z', '00000000-0000-4000-8000-000000000000']),
  cursor(['9999999']),
  cursor(['-1']),
  cursor({ after: 1 }),
];

export const ODD_LEAVES: unknown[] = [
  -1,
  -0.5,
  0,
  0.5,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e21,
  5e-324,
  8.64e15 + 1,
  true,
  false,
  null,
  '',
  ' ',
  '-1',
  '1e308',
  '0x1f',
  'NaN',
  'Infinity',
  '١٢٣',
  '0000-00-00',
  '2024-02-30T25:61:61Z',
  '275760-09-13T00:00:00.001Z',
  '-271821-04-20T00:00:00.000Z',
  '1969-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999999999+23:59',
  '99999999999999',
  '-99999999999999',
  'A'.repeat(20_000),
  "' or 1=1 --",
  '%_\\',
  '\u202Eevil',
  'e\u0301'.repeat(300),
  '👩‍👩‍👧‍👦',
  'İstanbul',
  '__proto__',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '<script>alert(1)</script>',
  '\uFFFF\uFEFF',
  ...FORGED_CURSORS,
  deepArray(200),
  Array.from({ length: 5_000 }, (_, index) => index),
  Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`k${index}`, index])),
];

export const oddValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 2 },
    { weight: 6, arbitrary: fc.constantFrom(...ODD_LEAVES) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(fieldName, tie('value'), { maxKeys: 3 }) },
  ),
})).value;

/** A JSON object body of plausible wire names, each holding a hostile value of the pass. */
export const bodyOf = (pass: Pass) =>
  fc.dictionary(fieldName, pass === 'unstorable' ? unstorableValue : oddValue, { minKeys: 1, maxKeys: 6 });

/** Path segments, already percent-encoded as they go on the wire. */
export const PATH_VALUES: Record<Pass, string[]> = {
  unstorable: ['%00', 'a%00b', '%ED%A0%80', '%C0%80', '%FF', '%', '%zz', '00000000-0000-4000-8000-000000000000%00', 'x%F0%9F'],
  odd: [
    '-1',
    '0',
    '1e308',
    '9'.repeat(30),
    'NaN',
    'null',
    '..',
    '%2e%2e%2f%2e%2e%2f',
    'a'.repeat(4_000),
    '00000000-0000-0000-0000-000000000000',
    '%F0%9F%98%80',
    '%20',
    '__proto__',
    '%C4%B0',
  ],
};

export const QUERY_NAMES = [
  'page',
  'limit',
  'first',
  'after',
  'mix_id_to_exclude',
  'url',
  'format',
  'maxwidth',
  'maxheight',
  'query',
  'variables',
];

/** Values only some query parameters take, encoded: links to this site's own pages with hostile paths, forged cursors. */
export const QUERY_VALUES: Record<string, string[]> = {
  url: [
    'http://localhost:4000/shared-mix/%00',
    'http://localhost:4000/shared-profile/%ED%A0%80',
    'http://localhost:4000/shared-mix/00000000-0000-0000-0000-000000000000',
    `http://localhost:4000/shared-profile/${'a'.repeat(3_000)}`,
    'javascript:alert(1)',
    'http://[::1',
  ].map(encodeURIComponent),
  after: FORGED_CURSORS,
};

export interface RawBody {
  label: string;
  contentType: string;
  payload: string | Buffer;
}

const BOUNDARY = 'fuzzboundary';

type Part = { name: string; value: string } | { name: string; fileName: string; bytes: Buffer; type: string };

export function multipart(parts: Part[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      'fileName' in part ? `form-data; name="${part.name}"; filename="${part.fileName}"` : `form-data; name="${part.name}"`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${'fileName' in part ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), 'fileName' in part ? part.bytes : Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const FORM = `multipart/form-data; boundary=${BOUNDARY}`;
const garbage = Buffer.from('\u0000\u00ff not audio, not an image \u0000'.repeat(40), 'latin1');
const FORM_FIELDS = ['title', 'genre', 'display_name', 'bio', 'user_type', 'mp3'];

/** Bodies that are broken as bodies: every one must be refused, whatever route it reaches. */
export const MALFORMED_BODIES: RawBody[] = [
  { label: 'json: unterminated object', contentType: 'application/json', payload: '{"email":' },
  { label: 'json: unterminated array', contentType: 'application/json', payload: '[' },
  { label: 'json: trailing brace', contentType: 'application/json', payload: '{"a":1}}' },
  { label: 'json: bare word', contentType: 'application/json', payload: 'nul' },
  { label: 'json: raw NUL', contentType: 'application/json', payload: '\u0000' },
  { label: 'json: empty', contentType: 'application/json', payload: '' },
  { label: 'json: a string', contentType: 'application/json', payload: '"\\u0000"' },
  { label: 'json: a number', contentType: 'application/json', payload: '1e999' },
  { label: 'json: escaped lone surrogate', contentType: 'application/json', payload: '{"user_name":"\\ud800","title":"\\udfff"}' },
  {
    label: 'json: prototype keys',
    contentType: 'application/json',
    payload: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
  },
  { label: 'json: 100,000 nested arrays', contentType: 'application/json', payload: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
  { label: 'json: declared utf-16', contentType: 'application/json; charset=utf-16', payload: '{"a":"b"}' },
  { label: 'text/plain', contentType: 'text/plain', payload: 'user_name=\u0000' },
  { label: 'form-urlencoded', contentType: 'application/x-www-form-urlencoded', payload: 'user_name=%00&page=-1' },
  { label: 'xml', contentType: 'application/xml', payload: '<a>&xxe;</a>' },
  { label: 'multipart without boundary', contentType: 'multipart/form-data', payload: multipart([{ name: 'title', value: 'x' }]) },
  {
    label: 'multipart with another boundary',
    contentType: 'multipart/form-data; boundary=other',
    payload: multipart([{ name: 'title', value: 'x' }]),
  },
  { label: 'multipart garbage', contentType: FORM, payload: garbage },
  {
    label: 'multipart truncated',
    contentType: FORM,
    payload: multipart([{ name: 'cover', fileName: 'c.jpg', bytes: garbage, type: 'image/jpeg' }]).subarray(0, 300),
  },
  { label: 'multipart closing boundary only', contentType: FORM, payload: `--${BOUNDARY}--\r\n` },
  {
    label: 'multipart: NUL in every field, garbage files',
    contentType: FORM,
    payload: multipart([
      ...FORM_FIELDS.map((name) => ({ name, value: `x\u0000${name}` })),
      { name: 'cover', fileName: 'c\u0000.jpg', bytes: garbage, type: 'image/jpeg' },
      { name: 'mp3', fileName: 'a.mp3', bytes: garbage, type: 'audio/mpeg' },
      { name: 'profile_image', fileName: 'p.png', bytes: garbage, type: 'image/png' },
    ]),
  },
  {
    label: 'multipart: lone surrogates in fields',
    contentType: FORM,
    payload: multipart(FORM_FIELDS.map((name) => ({ name, value: `\uD800${name}` }))),
  },
];

/** Bodies that are well formed but strange: they may succeed, never with a 5xx. */
export const ODD_BODIES: RawBody[] = [
  {
    label: 'json: invalid UTF-8 bytes',
    contentType: 'application/json',
    payload: Buffer.from([0x7b, 0x22, 0x62, 0x69, 0x6f, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d]),
  },
  { label: 'json: array', contentType: 'application/json', payload: '[{"page":0}]' },
  { label: 'json: null', contentType: 'application/json', payload: 'null' },
  {
    label: 'multipart: odd fields, garbage files',
    contentType: FORM,
    payload: multipart([
      ...FORM_FIELDS.map((name) => ({ name, value: 'e\u0301'.repeat(300) })),
      { name: 'cover', fileName: '../../etc/passwd', bytes: garbage, type: 'image/jpeg' },
      { name: 'mp3', fileName: 'a.mp3', bytes: Buffer.alloc(0), type: 'audio/mpeg' },
      { name: 'profile_image', fileName: 'p.png', bytes: garbage, type: 'image/png' },
      { name: 'unexpected', fileName: 'u.bin', bytes: garbage, type: 'application/octet-stream' },
    ]),
  },
  {
    label: 'multipart: a field sent twice and an empty name',
    contentType: FORM,
    payload: multipart([
      { name: 'title', value: 'one' },
      { name: 'title', value: 'two' },
      { name: '', value: 'nameless' },
      { name: 'genre', value: 'house' },
    ]),
  },
];
