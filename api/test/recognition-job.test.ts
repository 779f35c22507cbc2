/**
 * The recognition job after upload: queued with the mix, it streams the stored MP3 against the stored fingerprints,
 * publishes its progress to the mix's owner over graphql-ws (nobody else may subscribe), stores what it found for
 * `mixRecognition`, and picks up again at start what a stopped process left.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { FOLDERS, newFileName, objectKey } from '../src/storage/storage.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { solidImage } from './support/images.js';
import { catalogueAndMix, TRUTH } from './support/recognition.js';
import { createMixOver } from './support/upload.js';
import { waitFor } from './support/wait.js';

let t: TestApp;
let wsUrl: string;
let owner: Member;
let other: Member;
let cover: Buffer;
let mixMp3: Buffer;
let recognisedMixId: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
  owner = await signUpMember(t.app);
  other = await signUpMember(t.app);
  cover = await solidImage('jpeg', 400, 400);
  mixMp3 = await catalogueAndMix(t);
}, 180_000);
afterAll(() => t.close());

const client = (token?: string) =>
  createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    lazy: false,
  });

const SUBSCRIPTION = `subscription ($mixId: ID!) { recognitionProgress(mixId: $mixId) { mixId state fraction tracks { externalId title start end confidence } } }`;

interface Progress {
  mixId: string;
  state: string;
  fraction: number;
  tracks: { externalId: string; title: string; start: number; end: number; confidence: number | null }[];
}

/** Subscribes; resolves with every event up to DONE or FAILED, or rejects with the subscription's error. */
function follow(token: string | undefined, mixId: string) {
  const ws = client(token);
  const events: Progress[] = [];
  const finished = new Promise<Progress[]>((resolve, reject) => {
    ws.subscribe<{ recognitionProgress: Progress }>(
      { query: SUBSCRIPTION, variables: { mixId } },
      {
        next: (value) => {
          if (value.errors) return reject(value.errors);
          const event = value.data?.recognitionProgress as Progress;
          events.push(event);
          if (event.state === 'DONE' || event.state === 'FAILED') resolve(events);
        },
        error: reject,
        complete: () => resolve(events),
      },
    );
  }).finally(() => ws.dispose());
  return { events, finished };
}

const codesOf = (error: unknown) =>
  (Array.isArray(error) ? error : [error]).map((e) => (e as { extensions?: { code?: string } }).extensions?.code);

test('after upload the owner follows the recognition live; the state query answers the tracks found', async () => {
  const { _id: mixId } = await createMixOver(t.app, owner.token, { cover, mp3: mixMp3, title: 'Recognised' });
  recognisedMixId = mixId;
  const live = follow(owner.token, mixId);
  const stranger = follow(other.token, mixId).finished.catch((error) => error);
  const anonymous = follow(undefined, mixId).finished.catch((error) => error);
  expect(codesOf(await stranger)).toEqual(['FORBIDDEN']);
  expect(codesOf(await anonymous)).toEqual(['UNAUTHENTICATED']);

  const events = await live.finished;
  const done = events.at(-1) as Progress;
  expect(done.state).toBe('DONE');
  expect(done.fraction).toBe(1);
  expect(done.tracks.map((track) => track.externalId)).toEqual(TRUTH.map((play) => `T${play.track}`));
  done.tracks.forEach((track, i) => {
    expect(Math.abs(track.start - (TRUTH[i]?.start ?? 0))).toBeLessThan(15);
    expect(track.confidence).toBeGreaterThan(0);
  });
  const running = events.filter((event) => event.state === 'RUNNING');
  expect(running.length).toBeGreaterThan(3);
  const fractions = running.map((event) => event.fraction);
  expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  expect(fractions.some((fraction) => fraction > 0.2 && fraction < 1)).toBe(true);
  // Tracks are reported as they are found, with their times, before the end.
  expect(running.some((event) => event.tracks.length > 0 && event.tracks[0]?.start !== undefined)).toBe(true);

  const query = `query ($mixId: ID!) { mixRecognition(mixId: $mixId) { state fraction tracks { externalId title start end confidence } } }`;
  const answer = await gql<{ mixRecognition: Progress }>(t.app, query, { mixId }, owner.token);
  expect(answer.errors).toBeUndefined();
  expect(answer.data?.mixRecognition).toEqual({ state: 'DONE', fraction: 1, tracks: done.tracks });
  expect(done.tracks[0]?.title).toMatch(/^Reference \d$/);
  const refused = await gql(t.app, query, { mixId }, other.token);
  expect(codesOf(refused.errors?.[0])).toEqual(['FORBIDDEN']);
  const anonymousQuery = await gql(t.app, query, { mixId });
  expect(codesOf(anonymousQuery.errors?.[0])).toEqual(['UNAUTHENTICATED']);
}, 180_000);

test("the confirm step's lookup puts the recognised track first in the row it matches (owner only)", async () => {
  // Rows typed vaguely: each could be any reference; the mix's recognition tells them apart, in play order.
  const rows = TRUTH.map(() => ({ artist: 'test artist', title: 'reference' }));
  const lookup = (token: string, mixId?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/track/acquire-track-information',
      headers: { 'x-auth-token': token },
      payload: { tracks_array: rows, ...(mixId ? { mix_id: mixId } : {}) },
    });
  const firstTitles = (body: { data: { title: string }[][] }) => body.data.map((row) => row[0]?.title);
  const plain = await lookup(owner.token);
  expect(plain.statusCode).toBe(200);
  expect(new Set(firstTitles(plain.json())).size).toBe(1);
  const preselected = await lookup(owner.token, recognisedMixId);
  expect(preselected.statusCode).toBe(200);
  expect(firstTitles(preselected.json())).toEqual(TRUTH.map((play) => `Reference ${play.track}`));
  for (const [i, row] of (preselected.json() as { data: unknown[][] }).data.entries())
    expect(row).toHaveLength((plain.json() as { data: unknown[][] }).data[i]?.length ?? -1);
  expect((await lookup(other.token, recognisedMixId)).statusCode).toBe(403);

  const query = `query ($tracks: [TrackLookupRowInput!]!, $mixId: ID) { lookupTracks(tracks: $tracks, mixId: $mixId) { title } }`;
  const answer = await gql<{ lookupTracks: { title: string }[][] }>(t.app, query, { tracks: rows, mixId: recognisedMixId }, owner.token);
  expect(answer.data?.lookupTracks.map((row) => row[0]?.title)).toEqual(TRUTH.map((play) => `Reference ${play.track}`));
});

test('a job a stopped process left pending runs again at start', async () => {
  const mp3 = newFileName('mp3');
  await t.services.storage.put(objectKey(FOLDERS.mixAudio, mp3), mixMp3);
  const mix = await t.services.mixes.createDraft({
    ownerId: owner.id,
    title: 'Left behind',
    genre: 'house',
    cover: newFileName('jpg'),
    mp3,
  });
  // As a process that died between queueing and running leaves it: the job row, no pg-boss job.
  await t.services.orm.em
    .fork()
    .getConnection()
    .execute(`insert into recognition_job (mix_id, state, fraction, updated_at) values (?, 'running', 0.4, now())`, [mix.id]);
  await t.services.media.resumeInterruptedWork();
  const viewer = await t.services.auth.authenticate(owner.token);
  const view = await waitFor('the resumed recognition to finish', () => t.services.recognitionJobs.forOwner(viewer, mix.id), {
    until: (value) => value.state === 'done',
    timeoutMs: 120_000,
  });
  expect(view.tracks.map((track) => track.externalId)).toEqual(TRUTH.map((play) => `T${play.track}`));
}, 180_000);
