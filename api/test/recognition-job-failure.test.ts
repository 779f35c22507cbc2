/** A recognition job that cannot run (its MP3 is gone) is retried, then ends FAILED: stored, and pushed to the owner. */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { Topics } from '../src/graphql/topics.js';
import { newFileName } from '../src/storage/storage.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { subscribed } from './support/sockets.js';

let t: TestApp;
let wsUrl: string;
let owner: Member;
beforeAll(async () => {
  t = await createTestApp({ WAVEFORM_RETRY_LIMIT: '1', WAVEFORM_RETRY_DELAY_SECONDS: '1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/graphql`;
  owner = await signUpMember(t.app);
}, 60_000);
afterAll(() => t.close());

test('a job whose MP3 is missing ends FAILED after its retries, and the owner hears it', async () => {
  const mix = await t.services.mixes.createDraft({
    ownerId: owner.id,
    title: 'No audio',
    genre: 'house',
    cover: newFileName('jpg'),
    mp3: newFileName('mp3'),
  });
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${owner.token}` },
    lazy: false,
  });
  const states: string[] = [];
  const ended = new Promise<void>((resolve, reject) => {
    client.subscribe<{ recognitionProgress: { state: string } }>(
      { query: 'subscription ($mixId: ID!) { recognitionProgress(mixId: $mixId) { state } }', variables: { mixId: mix.id } },
      {
        next: (value) => {
          const state = value.data?.recognitionProgress.state ?? 'ERROR';
          states.push(state);
          if (state === 'FAILED' || state === 'ERROR') resolve();
        },
        error: reject,
        complete: () => resolve(),
      },
    );
  });
  await subscribed(t.app, Topics.RecognitionProgress);
  await t.services.recognitionJobs.enqueue(mix.id);
  await ended;
  await client.dispose();
  expect(states).toEqual(['FAILED']);
  const answer = await gql<{ mixRecognition: { state: string; tracks: unknown[] } }>(
    t.app,
    'query ($mixId: ID!) { mixRecognition(mixId: $mixId) { state tracks { trackId } } }',
    { mixId: mix.id },
    owner.token,
  );
  expect(answer.data?.mixRecognition).toEqual({ state: 'FAILED', tracks: [] });
  // The mix itself is untouched: it can still be published (recognition never blocks it).
  const [row] = await t.services.orm.em
    .fork()
    .getConnection()
    .execute<{ status: string }[]>('select status from mix where id = ?', [mix.id]);
  expect(row?.status).toBe('draft');
}, 120_000);
