/**
 * Members adding reference audio to tracks they own: POST /api/track/:id/reference (a file, or a finished resumable
 * upload) and its GraphQL twin addTrackReference (a finished upload). The fingerprints land in PostgreSQL as the CLI's
 * do; bad files, others' tracks and files past the size limit get clear 4xx answers and store nothing.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { encodeWav } from '../src/modules/recognition/audio.js';
import { encodeMp3, fingerprintReference } from '../src/modules/recognition/recognition.js';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { referenceAudio, TEST_SAMPLE_RATE, testReferences } from './support/recognition-test-set/generate.js';
import { orderedMultipart } from './support/upload.js';

const SET = testReferences(11, 1, 0, 30);
const MAX_BYTES = 600_000;

let t: TestApp;
let base: string;
let label: Member;
let other: Member;
let wav: Buffer;
let mp3: Buffer;
const LABEL_TRACK = '00000000-0000-4000-8000-000000000101';
const CREATOR_TRACK = '00000000-0000-4000-8000-000000000102';
const OTHERS_TRACK = '00000000-0000-4000-8000-000000000103';

beforeAll(async () => {
  t = await createTestApp({ RECOGNITION_REFERENCE_MAX_BYTES: String(MAX_BYTES) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  label = await signUpMember(t.app);
  other = await signUpMember(t.app);
  const track = (id: string, title: string, owner: { creator?: string; label?: string }) => ({
    id,
    source: 'test',
    externalId: title,
    title,
    creators: [{ id: owner.creator ?? null, name: 'Artist' }],
    label: owner.label ? { id: owner.label, name: 'Label' } : null,
    cover: null,
    releaseDate: null,
    buy: false,
    newRelease: false,
  });
  await new CatalogueService(t.services.orm).write([
    track(LABEL_TRACK, 'On my label', { label: label.id }),
    track(CREATOR_TRACK, 'By me', { creator: label.id }),
    track(OTHERS_TRACK, 'Not mine', {}),
  ]);
  const audio = referenceAudio(SET.references[0] as (typeof SET.references)[number]);
  // Both under the size limit: 12 s of 16-bit mono WAV, 30 s of MP3.
  wav = Buffer.from(encodeWav(audio.subarray(0, TEST_SAMPLE_RATE * 12), TEST_SAMPLE_RATE));
  mp3 = Buffer.from(await encodeMp3(audio, TEST_SAMPLE_RATE, 64));
  expect(wav.length).toBeLessThan(MAX_BYTES);
  expect(mp3.length).toBeLessThan(MAX_BYTES);
}, 120_000);
afterAll(() => t.close());

const sql = <T>(query: string, params: unknown[] = []) => t.services.orm.em.fork().execute<T[]>(query, params);
const storedEntries = async (trackId: string) =>
  Number(
    (
      await sql<{ n: string }>(
        'select count(f.*) as n from recognition_reference r join recognition_fingerprint f using (reference_no) where r.track_id = ?',
        [trackId],
      )
    )[0]?.n,
  );

function post(trackId: string, file: { data: Buffer; name?: string } | null, token?: string) {
  const form = orderedMultipart(file ? [{ name: 'audio', fileName: file.name ?? 'ref.mp3', type: 'audio/mpeg', data: file.data }] : []);
  return t.app.inject({
    method: 'POST',
    url: `/api/track/${trackId}/reference`,
    headers: { ...form.headers, ...(token ? { 'x-auth-token': token } : {}) },
    payload: form.payload,
  });
}

test('the label of a track adds its reference audio (MP3 or WAV): fingerprinted into PostgreSQL as the CLI stores it', async () => {
  const answer = await post(LABEL_TRACK, { data: mp3 }, label.token);
  expect(answer.statusCode).toBe(201);
  const body = answer.json<{ track_id: string; seconds: number; fingerprints: number }>();
  expect(body.track_id).toBe(LABEL_TRACK);
  expect(body.seconds).toBeGreaterThan(29);
  expect(body.fingerprints).toBeGreaterThan(500);
  expect(await storedEntries(LABEL_TRACK)).toBe(body.fingerprints);
  // The same rows the engine makes of the same audio (the CLI's path: fingerprint, then storeFingerprints).
  const direct = fingerprintReference(referenceAudio(SET.references[0] as (typeof SET.references)[number]), TEST_SAMPLE_RATE);
  expect(body.fingerprints / direct.hashes.length).toBeGreaterThan(0.5);

  const asCreator = await post(CREATOR_TRACK, { data: wav, name: 'ref.wav' }, label.token);
  expect(asCreator.statusCode).toBe(201);
  expect(await storedEntries(CREATOR_TRACK)).toBe(asCreator.json<{ fingerprints: number }>().fingerprints);
}, 60_000);

test('others’ tracks, strangers, unknown tracks, bad and too large files are refused with clear words, storing nothing', async () => {
  const refused = async (trackId: string, file: { data: Buffer; name?: string } | null, token: string | undefined, status: number) => {
    const answer = await post(trackId, file, token);
    expect(answer.statusCode).toBe(status);
    return answer.json<{ message: string }>().message;
  };
  expect(await refused(OTHERS_TRACK, { data: mp3 }, label.token, 403)).toMatch(/creators and label/);
  expect(await refused(LABEL_TRACK, { data: mp3 }, other.token, 403)).toMatch(/creators and label/);
  expect(await refused(LABEL_TRACK, { data: mp3 }, undefined, 401)).toBeTruthy();
  expect(await refused('00000000-0000-4000-8000-00000000ffff', { data: mp3 }, label.token, 404)).toMatch(/Track not found/);
  expect(await refused('not-a-track', { data: mp3 }, label.token, 404)).toMatch(/Track not found/);
  expect(await refused(LABEL_TRACK, null, label.token, 400)).toMatch(/Missing: the reference audio/);
  expect(await refused(OTHERS_TRACK, { data: Buffer.from('just some text, not audio at all') }, label.token, 403)).toBeTruthy();
  const before = await storedEntries(LABEL_TRACK);
  expect(await refused(LABEL_TRACK, { data: Buffer.from('just some text, not audio at all '.repeat(100)) }, label.token, 400)).toMatch(
    /MP3 or WAV/,
  );
  const short = Buffer.from(
    encodeWav(
      new Float32Array(TEST_SAMPLE_RATE * 2).map((_, i) => Math.sin(i / 5)),
      TEST_SAMPLE_RATE,
    ),
  );
  expect(await refused(LABEL_TRACK, { data: short, name: 'short.wav' }, label.token, 400)).toMatch(/too short/);
  expect(await refused(LABEL_TRACK, { data: Buffer.concat([mp3, mp3, mp3, mp3, mp3, mp3]) }, label.token, 413)).toMatch(
    /too large \(max\. 0\.6 MB\)/,
  );
  expect(await storedEntries(LABEL_TRACK)).toBe(before);
  expect(await storedEntries(OTHERS_TRACK)).toBe(0);
}, 60_000);

test('GraphQL addTrackReference takes a finished resumable upload; a manual track belongs to the member who typed it', async () => {
  // A manual track in a tracklist of the other member's mix.
  const [{ id: manualId } = { id: '' }] = await sql<{ id: string }>(
    `insert into track (id, title, creators, is_manual, created_at) values (gen_random_uuid(), 'Unreleased dub', '[{"id":null,"name":"Me"}]', true, now()) returning id`,
  );
  const [{ id: mixId } = { id: '' }] = await sql<{ id: string }>(
    `insert into mix (id, owner_id, title, genre, cover, mp3, status, created_at, updated_at)
     values (gen_random_uuid(), ?, 'Mine', 'house', 'c.jpg', 'm.mp3', 'draft', now(), now()) returning id`,
    [other.id],
  );
  await sql('insert into mix_track (id, mix_id, track_id, position) values (gen_random_uuid(), ?, ?, 1)', [mixId, manualId]);

  const upload = async (token: string) => {
    const created = await fetch(`${base}/api/uploads`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': String(mp3.length), 'x-auth-token': token },
    });
    const location = String(created.headers.get('location'));
    const patched = await fetch(`${base}${location}`, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'x-auth-token': token,
      },
      body: mp3,
    });
    expect(patched.status).toBe(204);
    return location;
  };
  const mutation = `mutation ($trackId: ID!, $upload: String!) { addTrackReference(trackId: $trackId, upload: $upload) { trackId seconds fingerprints } }`;
  const refused = await gql(t.app, mutation, { trackId: manualId, upload: await upload(label.token) }, label.token);
  expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

  const mine = await upload(other.token);
  const answer = await gql<{ addTrackReference: { trackId: string; seconds: number; fingerprints: number } }>(
    t.app,
    mutation,
    { trackId: manualId, upload: mine },
    other.token,
  );
  expect(answer.errors).toBeUndefined();
  expect(answer.data?.addTrackReference.trackId).toBe(manualId);
  expect(answer.data?.addTrackReference.fingerprints).toBe(await storedEntries(manualId));
  // The upload is used up.
  const again = await gql(t.app, mutation, { trackId: manualId, upload: mine }, other.token);
  expect(again.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
}, 60_000);
