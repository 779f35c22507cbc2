import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Topics } from '../src/graphql/topics.js';
import { createTestApp, signUpMember, type TestApp } from './support/app.js';
import { publishedMix } from './support/mixes.js';
import { socketUrl, subscribed, watch } from './support/sockets.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// Instances behind one load balancer sign with one key, so a token from one is good on the other.
const JWT_SECRET = 'two-instances-share-this-secret-0123456789';

// Two API instances as behind a load balancer: sharing a Redis (and the database), or sharing only PostgreSQL.
describe.each([
  { shared: 'Redis', env: { REDIS_URL, JWT_SECRET } },
  { shared: 'only PostgreSQL', env: { REDIS_URL: '', JWT_SECRET } },
])('two instances sharing $shared', ({ env }) => {
  let a: TestApp;
  let b: TestApp;
  let bUrl: string;
  beforeAll(async () => {
    a = await createTestApp(env);
    b = await createTestApp(env, { databaseUrl: a.databaseUrl });
    bUrl = await socketUrl(b.app);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  test('a listen started on one reaches a count subscriber on the other', async () => {
    const dj = await signUpMember(a.app);
    const mixId = await publishedMix(a.app, a.services, dj);
    const live = watch(bUrl, 'subscription ($id: ID!) { mixListenerCount(mixId: $id) }', { id: mixId });
    try {
      expect((await live.next()).data).toEqual({ mixListenerCount: 0 });
      const member = await signUpMember(a.app);
      await a.app.inject({ method: 'POST', url: `/api/mix/add-new-listen/${mixId}`, headers: { 'x-auth-token': member.token } });
      expect((await live.next()).data).toEqual({ mixListenerCount: 1 });
      await a.app.inject({ method: 'POST', url: `/api/mix/pause-listen/${mixId}`, headers: { 'x-auth-token': member.token } });
      expect((await live.next()).data).toEqual({ mixListenerCount: 0 });
    } finally {
      await live.stop();
    }
  });

  test('a follow on one reaches the followed member on the other', async () => {
    const star = await signUpMember(a.app);
    const fan = await signUpMember(a.app);
    const events = watch(bUrl, 'subscription { followEvents { kind follower { userName } unreadCount } }', {}, { token: star.token });
    try {
      // Nothing comes first on this subscription: the follow must wait until instance b listens.
      await subscribed(b.app, `${Topics.FollowEvent}:${star.id}`);
      await a.app.inject({ method: 'GET', url: `/api/user/follow/${star.id}`, headers: { 'x-auth-token': fan.token } });
      expect((await events.next()).data).toEqual({
        followEvents: { kind: 'FOLLOWED', follower: { userName: fan.userName }, unreadCount: 1 },
      });
    } finally {
      await events.stop();
    }
  });
});
