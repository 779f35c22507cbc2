/**
 * Reference audio from the people who own the music (docs/creators.md#reference-audio): POST /api/track/:id/reference
 * (a file, or a finished resumable upload) and its GraphQL twin addTrackReference (a finished upload), DELETE and
 * removeTrackReference. Verified creators and labels (approved claims) and moderators only. The fingerprints land in
 * PostgreSQL as the CLI's do; audio that already matches another owner's track waits in the moderation queue; bad
 * files, others' tracks and files past the size limit get clear 4xx answers and store nothing.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { encodeWav } from '../src/modules/recognition/audio.js';
import { encodeMp3, fingerprintReference } from '../src/modules/recognition/recognition.js';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { referenceAudio, TEST_SAMPLE_RATE, testReferences } from './support/recognition-test-set/generate.js';
import { orderedMultipart } from './support/upload.js';

const SET = testReferences(11, 2, 0, 30);
const MAX_BYTES = 600_000;

let t: TestApp;
let base: string;
let label: Member;
let other: Member;
let wav: Buffer;
let mp3: Buffer;
/** Other music than `mp3`: a reference no stored one matches. */
let otherMp3: Buffer;
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
    creators: [{ id: null, name: owner.creator ?? 'Artist' }],
    label: owner.label ? { id: null, name: owner.label } : null,
    cover: null,
    releaseDate: null,
    buy: false,
    newRelease: false,
  });
  await new CatalogueService(t.services.orm).write([
    track(LABEL_TRACK, 'On my label', { label: 'Verified Label' }),
    track(CREATOR_TRACK, 'By me', { creator: 'Verified Artist' }),
    track(OTHERS_TRACK, 'Not mine', { label: 'Catalogue Id Label' }),
  ]);
  // The member holds the label and the artist (approved claims); naming a member's id in the catalogue grants nothing.
  for (const [subject, key, name] of [
    ['label', 'name:verified label', 'Verified Label'],
    ['creator', 'name:verified artist', 'Verified Artist'],
  ])
    await t.services.orm.em.fork().execute(
      `insert into creator_claim (id, user_id, subject, subject_key, subject_name, evidence, note, status, created_at)
         values (gen_random_uuid(), ?, ?, ?, ?, '[]', '', 'approved', now())`,
      [label.id, subject, key, name],
    );
  await t.services.orm.em
    .fork()
    .execute(`update track set label = jsonb_build_object('id', ?::text, 'name', 'x') where id = ?`, [label.id, OTHERS_TRACK]);
  const audio = referenceAudio(SET.references[0] as (typeof SET.references)[number]);
  // Both under the size limit: 12 s of 16-bit mono WAV, 30 s of MP3.
  wav = Buffer.from(encodeWav(audio.subarray(0, TEST_SAMPLE_RATE * 12), TEST_SAMPLE_RATE));
  mp3 = Buffer.from(await encodeMp3(audio, TEST_SAMPLE_RATE, 64));
  otherMp3 = Buffer.from(await encodeMp3(referenceAudio(SET.references[1] as (typeof SET.references)[number]), TEST_SAMPLE_RATE, 64));
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
  expect(await refused(OTHERS_TRACK, { data: mp3 }, label.token, 403)).toMatch(/verified creators and label/);
  expect(await refused(LABEL_TRACK, { data: mp3 }, other.token, 403)).toMatch(/verified creators and label/);
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

test('GraphQL addTrackReference takes a finished resumable upload; the typist of a manual track may not, a moderator may', async () => {
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

  const upload = async (token: string, audio = otherMp3) => {
    const created = await fetch(`${base}/api/uploads`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': String(audio.length), 'x-auth-token': token },
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
      body: audio,
    });
    expect(patched.status).toBe(204);
    return location;
  };
  const mutation = `mutation ($trackId: ID!, $upload: String!) { addTrackReference(trackId: $trackId, upload: $upload) { trackId seconds fingerprints } }`;
  const refused = await gql(t.app, mutation, { trackId: manualId, upload: await upload(label.token) }, label.token);
  expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  // The member whose tracklist holds the manual track typed it: that proves nothing.
  const typist = await gql(t.app, mutation, { trackId: manualId, upload: await upload(other.token) }, other.token);
  expect(typist.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  await t.services.roles.grant(other.email, 'moderator');

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

test('audio that matches another owner’s track waits in the moderation queue; approved, it is indexed', async () => {
  const thief = await signUpMember(t.app);
  const moderator = await signUpMember(t.app);
  await t.services.roles.grant(moderator.email, 'moderator');
  const STOLEN = '00000000-0000-4000-8000-000000000104';
  await new CatalogueService(t.services.orm).write([
    {
      id: STOLEN,
      source: 'test',
      externalId: 'stolen',
      title: 'Sounds familiar',
      creators: [{ id: null, name: 'Copycat' }],
      label: null,
      cover: null,
      releaseDate: null,
      buy: false,
      newRelease: false,
    },
  ]);
  await sql(
    `insert into creator_claim (id, user_id, subject, subject_key, subject_name, evidence, note, status, created_at)
     values (gen_random_uuid(), ?, 'creator', 'name:copycat', 'Copycat', '[]', '', 'approved', now())`,
    [thief.id],
  );
  // The label's reference (the first test) is indexed: the same recording for another track is held back.
  expect(await storedEntries(LABEL_TRACK)).toBeGreaterThan(0);
  const answer = await post(STOLEN, { data: mp3 }, thief.token);
  expect(answer.statusCode, answer.body).toBe(202);
  expect(answer.json()).toMatchObject({ track_id: STOLEN, queued: true });
  expect(await storedEntries(STOLEN)).toBe(0);

  const queue = await t.services.moderation.queue(moderator.id, {});
  const item = queue.items.find((entry) => entry.kind === 'reference_duplicate');
  expect(item?.summary).toContain('On my label');
  await expect(t.services.moderation.decide(thief.id, { itemId: item?.id, decision: 'approve' })).rejects.toMatchObject({ status: 403 });
  await t.services.moderation.decide(moderator.id, { itemId: item?.id, decision: 'approve', reason: 'Same artist, two names' });
  expect(await storedEntries(STOLEN)).toBeGreaterThan(500);

  // The manual track's audio (the third test) is another owner's too; the label's own second track (the first test)
  // was accepted at once, since the label holds both.
  const again = await post(STOLEN, { data: otherMp3 }, thief.token);
  expect(again.statusCode, again.body).toBe(202);
}, 60_000);

test('the holder or a moderator removes a reference; nobody else may', async () => {
  const stranger = await signUpMember(t.app);
  const remove = (trackId: string, token?: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/track/${trackId}/reference`, headers: token ? { 'x-auth-token': token } : {} });
  expect((await remove(CREATOR_TRACK, stranger.token)).statusCode).toBe(403);
  expect((await remove(CREATOR_TRACK)).statusCode).toBe(401);
  expect(await storedEntries(CREATOR_TRACK)).toBeGreaterThan(0);
  expect((await remove(CREATOR_TRACK, label.token)).statusCode).toBe(204);
  expect(await storedEntries(CREATOR_TRACK)).toBe(0);
  expect((await remove(CREATOR_TRACK, label.token)).statusCode).toBe(404);
  const gqlRemove = await gql(t.app, 'mutation ($id: ID!) { removeTrackReference(trackId: $id) }', { id: LABEL_TRACK }, stranger.token);
  expect(gqlRemove.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
});
