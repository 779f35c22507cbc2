import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, signUpMember, type TestApp } from './support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('a member signs up and reads themselves back', async () => {
  const member = await signUpMember(t.app, { latitude: 52.52, longitude: 13.405 });
  const me = await t.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers: { 'x-auth-token': member.token } });
  expect(me.json()).toMatchObject({ user_name: member.userName, location: { coordinates: [13.405, 52.52] } });
});
