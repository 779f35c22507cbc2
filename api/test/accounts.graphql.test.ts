import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { messages } from '../src/shared/rules.js';
import { createTestApp, gql, STRONG_PASSWORD, signUpMember, type TestApp } from './support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const VIEWER =
  'id email userName displayName userType userTypeLabel bio imageUrl hasOptedIn isAgreedToConduct currentMixId currentMixPosition location { latitude longitude }';

describe('accounts over GraphQL', () => {
  test('signUp, then every sign-up step, then me', async () => {
    const signUp = await gql<{ signUp: { token: string; viewer: { email: string; hasOptedIn: boolean } } }>(
      t.app,
      `mutation ($input: SignUpInput!) { signUp(input: $input) { token viewer { email hasOptedIn } } }`,
      { input: { email: 'Graph@Example.com', password: STRONG_PASSWORD, hasOptedIn: true } },
    );
    expect(signUp.data?.signUp.viewer).toEqual({ email: 'graph@example.com', hasOptedIn: true });
    const token = signUp.data?.signUp.token as string;

    await gql(t.app, `mutation { setUserName(userName: "graph.dj") { id } }`, {}, token);
    await gql(t.app, `mutation { setLocation(location: { latitude: 48.8566, longitude: 2.3522 }) { id } }`, {}, token);
    await gql(t.app, `mutation { setUserType(userType: DJ_CREATOR) { id } }`, {}, token);
    await gql(t.app, `mutation { agreeToConduct(agreed: true) { id } }`, {}, token);
    await gql(t.app, `mutation { setOptIn(hasOptedIn: false) { id } }`, {}, token);
    const random = await gql<{ assignRandomMix: { currentMixId: string | null } }>(
      t.app,
      `mutation { assignRandomMix { currentMixId } }`,
      {},
      token,
    );
    expect(random.data?.assignRandomMix.currentMixId).toBeNull();
    const updated = await gql(
      t.app,
      `mutation { updateProfile(input: { displayName: "Graph DJ", bio: "Hi" }) { displayName bio } }`,
      {},
      token,
    );
    expect(updated.data).toEqual({ updateProfile: { displayName: 'Graph DJ', bio: 'Hi' } });

    const me = await gql<{ me: Record<string, unknown> }>(t.app, `{ me { ${VIEWER} } }`, {}, token);
    expect(me.data?.me).toMatchObject({
      email: 'graph@example.com',
      userName: 'graph.dj',
      userType: 'DJ_CREATOR',
      userTypeLabel: 'DJ Creator',
      isAgreedToConduct: true,
      hasOptedIn: false,
      location: { latitude: 48.8566, longitude: 2.3522 },
    });
  });

  test('signIn answers a token; a wrong password an UNAUTHENTICATED error', async () => {
    const member = await signUpMember(t.app);
    const ok = await gql<{ signIn: { token: string } }>(t.app, `mutation ($i: SignInInput!) { signIn(input: $i) { token } }`, {
      i: { email: member.email, password: STRONG_PASSWORD },
    });
    expect(ok.data?.signIn.token).toBeTruthy();
    const wrong = await gql(t.app, `mutation ($i: SignInInput!) { signIn(input: $i) { token } }`, {
      i: { email: member.email, password: 'Wrong1!pass' },
    });
    expect(wrong.errors?.[0]).toMatchObject({ message: 'Invalid email or password', extensions: { code: 'UNAUTHENTICATED' } });
  });

  test('validation errors carry the documented message and BAD_USER_INPUT', async () => {
    const result = await gql(t.app, `mutation { signUp(input: { email: "x@y.io", password: "short" }) { token } }`);
    expect(result.errors?.[0]).toMatchObject({ message: messages.passwordRule, extensions: { code: 'BAD_USER_INPUT' } });
    const member = await signUpMember(t.app);
    const taken = await gql(
      t.app,
      `mutation ($n: String!) { setUserName(userName: $n) { id } }`,
      { n: member.userName.toUpperCase() },
      (await signUpMember(t.app)).token,
    );
    expect(taken.errors?.[0].extensions?.code).toBe('CONFLICT');
  });

  test('checkPassword then changePassword; changePassword with the old password in one call', async () => {
    const member = await signUpMember(t.app);
    const refused = await gql(t.app, `mutation { changePassword(input: { newPassword: "Brand1!new" }) }`, {}, member.token);
    expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await gql(t.app, `mutation { checkPassword(password: "${STRONG_PASSWORD}") }`, {}, member.token)).data).toEqual({
      checkPassword: 'Password is correct',
    });
    expect((await gql(t.app, `mutation { changePassword(input: { newPassword: "Brand1!new" }) }`, {}, member.token)).data).toEqual({
      changePassword: 'Password updated',
    });
    const wrongOld = await gql(
      t.app,
      `mutation { changePassword(input: { oldPassword: "Nope1!nope", newPassword: "Other1!new" }) }`,
      {},
      member.token,
    );
    expect(wrongOld.errors?.[0].message).toBe('Password is incorrect');
    const withOld = await gql(
      t.app,
      `mutation { changePassword(input: { oldPassword: "Brand1!new", newPassword: "Other1!new" }) }`,
      {},
      member.token,
    );
    expect(withOld.data).toEqual({ changePassword: 'Password updated' });
  });

  test('public profile and member search', async () => {
    const dj = await signUpMember(t.app, { userName: 'Public_Face', latitude: 52.52, longitude: 13.405 });
    const viewer = await signUpMember(t.app, { latitude: 51.5074, longitude: -0.1278 });
    const anonymous = await gql<{ user: Record<string, unknown> }>(
      t.app,
      `{ user(userName: "public_face") { id userName isFollowing distanceKm } }`,
    );
    expect(anonymous.data?.user).toEqual({ id: dj.id, userName: 'Public_Face', isFollowing: null, distanceKm: null });
    const signedIn = await gql<{ user: { distanceKm: number } }>(
      t.app,
      `{ user(userName: "Public_Face") { distanceKm isFollowing } }`,
      {},
      viewer.token,
    );
    expect(signedIn.data?.user.distanceKm).toBeCloseTo(931, -1);
    expect((await gql(t.app, `{ user(userName: "ghost_user") { id } }`)).data).toEqual({ user: null });
    const search = await gql(t.app, `{ searchMembers(text: "public_f") { userName displayName } }`, {}, viewer.token);
    expect(search.data).toEqual({ searchMembers: [{ userName: 'Public_Face', displayName: '' }] });
  });

  test('anonymous callers get UNAUTHENTICATED for member-only operations; me is null', async () => {
    expect((await gql(t.app, `{ me { id } }`)).data).toEqual({ me: null });
    for (const operation of [
      `mutation { setUserName(userName: "anon_x") { id } }`,
      `{ searchMembers(text: "a") { userName } }`,
      `mutation { assignRandomMix { id } }`,
    ]) {
      expect((await gql(t.app, operation)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    }
  });

  test('a forged bearer token is a 401 for the whole request', async () => {
    const result = await gql(t.app, `{ me { id } }`, {}, 'not.a.token');
    expect(result.status).toBe(401);
    expect(result.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('protecting the public endpoint', () => {
  test('queries costlier than the limit are refused', async () => {
    const aliases = Array.from({ length: 400 }, (_, i) => `u${i}: user(userName: "x") { id userName displayName bio imageUrl }`).join(' ');
    const result = await gql(t.app, `{ ${aliases} }`);
    expect(result.status).toBe(400);
    expect(result.errors?.[0]).toMatchObject({ extensions: { code: 'QUERY_TOO_COMPLEX' } });
  });

  test('CSRF: a simple cross-site request (GET without a preflight header) is refused', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/graphql?query=%7Bme%7Bid%7D%7D' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/CSRF/i);
    const textPlain = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'text/plain' },
      payload: '{"query":"{ me { id } }"}',
    });
    expect(textPlain.statusCode).toBeGreaterThanOrEqual(400);
    expect(textPlain.statusCode).toBeLessThan(500);
  });
});

describe('production, with a tight depth limit', () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await createTestApp({ NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), GRAPHQL_MAX_DEPTH: '1' });
  });
  afterAll(() => prod.close());

  test('queries deeper than GRAPHQL_MAX_DEPTH are refused before they run', async () => {
    expect((await gql(prod.app, `{ me { id } }`)).status).toBe(200);
    const deep = await gql(prod.app, `{ user(userName: "x") { location { latitude } } }`);
    expect(deep.status).toBe(400);
    expect(deep.errors?.[0].message).toMatch(/exceeds maximum operation depth of 1/);
  });

  test('no stack traces, and unexpected failures are masked', async () => {
    const result = await gql(prod.app, `mutation { signUp(input: { email: "bad", password: "x" }) { token } }`);
    expect(JSON.stringify(result)).not.toMatch(/stacktrace|\.ts:\d+/);
    expect(result.errors?.[0].message).toBe(messages.email);

    const rawDetail = 'connect ECONNREFUSED 10.20.30.40:5432 as mixcrate_owner';
    const failProfileLookup = (testApp: TestApp) => vi.spyOn(testApp.services.users, 'profile').mockRejectedValueOnce(new Error(rawDetail));
    const query = `{ user(userName: "anyone") { id } }`;

    // The same failure in development reaches the client word for word: what production must hide is really there.
    const development = failProfileLookup(t);
    const revealed = await gql(t.app, query);
    development.mockRestore();
    expect(revealed.errors?.[0].message).toContain(rawDetail);

    const production = failProfileLookup(prod);
    const masked = await gql(prod.app, query);
    expect(production).toHaveBeenCalledOnce();
    production.mockRestore();
    expect(masked.errors?.[0]).toMatchObject({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(JSON.stringify(masked)).not.toContain('ECONNREFUSED');
    expect(JSON.stringify(masked)).not.toMatch(/stacktrace|\.ts:\d+/);
  });
});
