import { SignJWT } from 'jose';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { messages } from '../src/shared/rules.js';
import { createTestApp, freshIp, type Member, STRONG_PASSWORD, signUpMember, type TestApp } from './support/app.js';
import { imageBomb, multipart, solidImage } from './support/images.js';
import { statementsDuring } from './support/mixes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: freshIp() });
const auth = (member: Member) => ({ 'x-auth-token': member.token });

describe('sign-up and sign-in', () => {
  test('sign-up answers a token that opens the logged-in user', async () => {
    const created = await post('/api/user/create-user', { email: 'Dj.Ana@Example.com ', password: STRONG_PASSWORD, has_opted_in: true });
    expect(created.statusCode).toBe(201);
    const me = await t.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers: { 'x-auth-token': created.json().token } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: 'dj.ana@example.com', has_opted_in: true, user_type: 'listener', current_mix: null });
  });

  test.each([
    [{ email: 'no-at-sign', password: STRONG_PASSWORD }, messages.email],
    [{ email: 'a@b.co', password: '' }, messages.passwordRequired],
    [{ email: 'a@b.co', password: 'weakpass' }, messages.passwordRule],
    // Seven characters meeting every other rule: the length alone refuses it (docs/accounts.md#passwords).
    [{ email: 'a@b.co', password: 'Ab1!xyz' }, messages.passwordRule],
    [{ email: 'a@b.co', password: 'Str0ng pass!' }, messages.passwordRule],
    [{ email: 'a@b.co' }, messages.passwordRequired],
  ])('sign-up refuses %j with the documented message', async (payload, message) => {
    const response = await post('/api/user/create-user', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: message, message });
  });

  test('an email signs up once', async () => {
    await post('/api/user/create-user', { email: 'twice@example.com', password: STRONG_PASSWORD });
    const again = await post('/api/user/create-user', { email: 'TWICE@example.com', password: STRONG_PASSWORD });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('An account with this email already exists');
  });

  test('sign-in with the right password answers a token; a wrong one or an unknown email the same 401', async () => {
    const member = await signUpMember(t.app);
    const ok = await post('/api/auth', { email: member.email.toUpperCase(), password: STRONG_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(typeof ok.json().token).toBe('string');
    const wrong = await post('/api/auth', { email: member.email, password: 'Wrong1!pass' });
    const unknown = await post('/api/auth', { email: 'nobody@example.com', password: STRONG_PASSWORD });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().error).toBe(unknown.json().error);
  });

  test('malformed JSON is a 400, not a 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Malformed JSON body');
  });

  test('a JSON body that is not an object is read as empty', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(response.statusCode).toBe(400);
  });

  test('too many sign-in attempts for one email answer 429 with a clear message', async () => {
    const member = await signUpMember(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post('/api/auth', { email: member.email, password: 'Wrong1!pass' })).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const limited = await post('/api/auth', { email: member.email, password: STRONG_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/^Too many attempts\. Please try again in \d+ minutes\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('too many sign-in attempts from one address answer 429, whatever the emails (30 per 15 minutes)', async () => {
    const remoteAddress = freshIp();
    const attempt = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth',
        payload: { email: `spray${i}@example.com`, password: 'Wrong1!pass' },
        remoteAddress,
      });
    const statuses: number[] = [];
    // One attempt per email: the per-email limit (10) never trips, so only the per-address one can refuse the 31st.
    // Each refused attempt still spends a bcrypt comparison (a quarter second of CPU, seconds on a busy machine).
    for (let i = 0; i < 31; i++) statuses.push((await attempt(i)).statusCode);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses[30]).toBe(429);
    // Another address still signs in.
    expect((await post('/api/auth', { email: 'spray0@example.com', password: 'Wrong1!pass' })).statusCode).toBe(401);
  }, 240_000);

  test('too many sign-ups from one address answer 429', async () => {
    const ip = '192.0.2.77';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/create-user',
        payload: { email: `burst${i}@example.com`, password: STRONG_PASSWORD },
        remoteAddress: ip,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses[10]).toBe(429);
  });
});

describe('tokens', () => {
  test('no token, a forged token and an expired token are each a 401', async () => {
    const member = await signUpMember(t.app);
    const none = await t.app.inject({ method: 'GET', url: '/api/user/logged-in-user' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('No token, authorization denied');

    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(member.id)
      .setIssuer('mixcrate')
      .sign(new TextEncoder().encode('x'.repeat(48)));
    const withForged = await t.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers: { 'x-auth-token': forged } });
    expect(withForged.statusCode).toBe(401);

    const [, payload] = member.token.split('.');
    const tampered = member.token.replace(
      payload,
      Buffer.from(JSON.stringify({ sub: 'someone-else', iss: 'mixcrate' })).toString('base64url'),
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers: { 'x-auth-token': tampered } })).statusCode).toBe(
      401,
    );

    const tokens = await (await import('../src/modules/auth/tokens.js')).TokenService.create(undefined, t.config.DATA_DIR);
    const expired = await tokens.sign(await t.services.auth.authenticate(member.token), new Date(Date.now() - 1000));
    const withExpired = await t.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers: { 'x-auth-token': expired } });
    expect(withExpired.statusCode).toBe(401);
    expect(withExpired.json().error).toBe('Your session has expired, please sign in again');
  });

  test('a signed-in member is remembered between requests, and a deleted member’s token stops working at once', async () => {
    const member = await signUpMember(t.app);
    const loggedIn = () => t.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers: { 'x-auth-token': member.token } });
    const sessionChecks = async () =>
      (await statementsDuring(t.services, async () => expect((await loggedIn()).statusCode).toBe(200))).filter((sql) =>
        /from "member_session"/.test(sql),
      ).length;
    // Once the instance listens for ended sessions (from its start), the check is answered from memory.
    await vi.waitFor(async () => expect(await sessionChecks()).toBe(0));

    // As the demo world's reset removes its members: straight from the table, on any instance; their sessions go too.
    await t.services.orm.em.fork().getConnection().execute('delete from app_user where id = ?', [member.id]);
    await vi.waitFor(async () => expect((await loggedIn()).statusCode).toBe(401));
    expect((await loggedIn()).json().error).toBe('You have been signed out, please sign in again');
  });

  test('a token stays valid across a restart because the generated secret is kept in DATA_DIR', async () => {
    const member = await signUpMember(t.app);
    const { TokenService } = await import('../src/modules/auth/tokens.js');
    const again = await TokenService.create(undefined, t.config.DATA_DIR);
    expect((await again.verify(member.token)).id).toBe(member.id);
  });
});

describe('sign-up steps', () => {
  test('user names are unique regardless of case, with a clear message', async () => {
    const first = await signUpMember(t.app, { userName: 'Night_Owl' });
    expect(first.userName).toBe('Night_Owl');
    const second = await signUpMember(t.app);
    const taken = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/add-username',
      headers: auth(second),
      payload: { user_name: 'night_owl' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('The username night_owl is already taken');
  });

  test.each(['ab', 'a'.repeat(31), 'has space', 'émile', 'semi;colon', ''])('user name %j is refused', async (userName) => {
    const member = await signUpMember(t.app);
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/add-username',
      headers: auth(member),
      payload: { user_name: userName },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(messages.userNameRule);
  });

  test('the user name may come with the token in the body, as the original client sends it', async () => {
    const member = await signUpMember(t.app);
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/add-username',
      payload: { user_name: 'body.token-ok', user_token: member.token },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user_name).toBe('body.token-ok');
  });

  test('location, user type and code of conduct are stored; bad values are 400s', async () => {
    const member = await signUpMember(t.app);
    const headers = auth(member);
    const located = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/update-location',
      headers,
      payload: { location: { latitude: 51.5074, longitude: -0.1278 } },
    });
    expect(located.json().location).toEqual({ type: 'Point', coordinates: [-0.1278, 51.5074] });
    const badLocation = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/update-location',
      headers,
      payload: { location: { latitude: 91, longitude: 0 } },
    });
    expect(badLocation.statusCode).toBe(400);
    expect(badLocation.json().error).toBe('latitude must be between -90 and 90');
    expect((await t.app.inject({ method: 'PATCH', url: '/api/user/update-location', headers, payload: {} })).statusCode).toBe(400);

    const typed = await t.app.inject({ method: 'PATCH', url: '/api/user/add-user-type', headers, payload: { user_type: 'dj-creator' } });
    expect(typed.json().user_type).toBe('dj-creator');
    const badType = await t.app.inject({ method: 'PATCH', url: '/api/user/add-user-type', headers, payload: { user_type: 'wizard' } });
    expect(badType.statusCode).toBe(400);

    const agreed = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/set-user-conduct',
      headers,
      payload: { is_agreed_to_conduct: true },
    });
    expect(agreed.json().is_agreed_to_conduct).toBe(true);
    expect(
      (await t.app.inject({ method: 'PATCH', url: '/api/user/set-user-conduct', headers, payload: { is_agreed_to_conduct: 'yes' } }))
        .statusCode,
    ).toBe(400);
  });

  test('add-random-mix answers null when there is no published mix, not an error', async () => {
    const member = await signUpMember(t.app);
    const response = await t.app.inject({ method: 'POST', url: '/api/user/add-random-mix', headers: auth(member) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ current_mix: null, current_mix_pos: 0 });
  });

  test('add-random-mix assigns a published mix', async () => {
    const dj = await signUpMember(t.app);
    const draft = await t.services.mixes.createDraft({ ownerId: dj.id, title: 'Sunrise', genre: 'house', cover: 'c.jpg', mp3: 'a.mp3' });
    await t.services.orm.em
      .fork()
      .getConnection()
      .execute(`update mix set status = 'published', published_at = now() where id = ?`, [draft.id]);
    const member = await signUpMember(t.app);
    const response = await t.app.inject({ method: 'POST', url: '/api/user/add-random-mix', headers: auth(member) });
    expect(response.json()).toEqual({ current_mix: draft.id, current_mix_pos: 0 });
  });

  test('the opt-in flag can be changed only for oneself', async () => {
    const member = await signUpMember(t.app);
    const other = await signUpMember(t.app);
    const own = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/opt-in',
      headers: auth(member),
      payload: { userId: member.id, has_opted_in: true },
    });
    expect(own.json()).toEqual({ has_opted_in: true });
    const theirs = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/opt-in',
      headers: auth(member),
      payload: { userId: other.id, has_opted_in: true },
    });
    expect(theirs.statusCode).toBe(403);
  });
});

describe('passwords', () => {
  test('check, then update: the documented settings flow; the new password signs in', async () => {
    const member = await signUpMember(t.app);
    const wrong = await post('/api/user/check-password', { password: 'Nope1!nope' }, auth(member));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('Password is incorrect');

    const updateFirst = await t.app.inject({
      method: 'PUT',
      url: '/api/user/update-password',
      headers: auth(member),
      payload: { newPassword: 'Another1!' },
    });
    expect(updateFirst.statusCode).toBe(403);

    expect((await post('/api/user/check-password', { password: STRONG_PASSWORD }, auth(member))).statusCode).toBe(200);
    const weak = await t.app.inject({
      method: 'PUT',
      url: '/api/user/update-password',
      headers: auth(member),
      payload: { newPassword: 'weak' },
    });
    expect(weak.json().error).toBe(messages.passwordRule);
    const updated = await t.app.inject({
      method: 'PUT',
      url: '/api/user/update-password',
      headers: auth(member),
      payload: { newPassword: 'Another1!' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().message).toBe('Password updated');
    expect((await post('/api/auth', { email: member.email, password: 'Another1!' })).statusCode).toBe(200);
    expect((await post('/api/auth', { email: member.email, password: STRONG_PASSWORD })).statusCode).toBe(401);

    const again = await t.app.inject({
      method: 'PUT',
      url: '/api/user/update-password',
      headers: auth(member),
      payload: { newPassword: 'Third1!pass' },
    });
    expect(again.statusCode).toBe(403);
  });

  test('the documented create-password call with email + newPassword alone never changes a password', async () => {
    const member = await signUpMember(t.app);
    const response = await post('/api/auth/update-password', { email: member.email, newPassword: 'Hijack1!pass' });
    expect(response.statusCode).toBe(400);
    expect((await post('/api/auth', { email: member.email, password: 'Hijack1!pass' })).statusCode).toBe(401);
    const forged = await post('/api/auth/update-password', { email: member.email, newPassword: 'Hijack1!pass', token: 'guess' });
    expect(forged.statusCode).toBe(404);
  });
});

describe('profiles', () => {
  test('a profile by user name shows public fields, follow state and distance, never the email', async () => {
    const berlin = await signUpMember(t.app, { userName: 'berlin_dj', latitude: 52.52, longitude: 13.405, userType: 'dj' });
    const london = await signUpMember(t.app, { latitude: 51.5074, longitude: -0.1278 });
    const response = await t.app.inject({ method: 'GET', url: '/api/user/by-user-name/BERLIN_DJ', headers: auth(london) });
    const body = response.json();
    expect(body).toMatchObject({ _id: berlin.id, user_name: 'berlin_dj', user_type: 'dj', isFollowing: false });
    expect(body.distance).toBeGreaterThan(920);
    expect(body.distance).toBeLessThan(940);
    expect(body).not.toHaveProperty('email');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/user/by-user-name/berlin_dj' });
    expect(anonymous.json()).toMatchObject({ isFollowing: null, distance: null });
    expect((await t.app.inject({ method: 'GET', url: '/api/user/by-user-name/nobody_here' })).statusCode).toBe(404);
  });

  test('update-user stores display name, user type, bio and a 400x400 JPEG made from the upload', async () => {
    const member = await signUpMember(t.app);
    const form = multipart({ display_name: ' Ana Night ', user_type: 'promoter', bio: 'Warehouse Sundays.' }, [
      { field: 'profile_image', name: 'me.png', type: 'image/png', data: await solidImage('png', 900, 500) },
    ]);
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/update-user',
      headers: { ...auth(member), ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(200);
    const user = response.json().data;
    expect(user).toMatchObject({ display_name: 'Ana Night', user_type: 'promoter', bio: 'Warehouse Sundays.' });
    expect(user.user_image).toMatch(/^\/media\/user\/profile-images\/[0-9a-f]{32}\.jpg$/);
    const image = await t.app.inject({ method: 'GET', url: user.user_image });
    expect(image.statusCode).toBe(200);
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 400, 400]);
  });

  test('a new profile image replaces the old file', async () => {
    const member = await signUpMember(t.app);
    const upload = async () => {
      const form = multipart({}, [{ field: 'profile_image', name: 'a.gif', type: 'image/gif', data: await solidImage('gif', 50, 50) }]);
      return (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/user/update-user',
          headers: { ...auth(member), ...form.headers },
          payload: form.payload,
        })
      ).json().data.user_image as string;
    };
    const first = await upload();
    const second = await upload();
    expect(second).not.toBe(first);
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
  });

  test.each([
    ['text renamed .png', Buffer.from('hello, not an image'), 400, 'Wrong format! Try .jpg .png or .gif'],
    ['a webp (not allowed for profiles)', null, 400, 'Wrong format! Try .jpg .png or .gif'],
    ['zero bytes', Buffer.alloc(0), 200, null],
    ['over 2,000,000 bytes', Buffer.alloc(2_000_001, 1), 413, 'File too large (max. 2MB)'],
  ])('a profile image that is %s is refused with the documented message', async (_name, data, status, message) => {
    const member = await signUpMember(t.app);
    const body = data ?? (await solidImage('webp'));
    const form = multipart({}, [{ field: 'profile_image', name: 'x.png', type: 'image/png', data: body }]);
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/update-user',
      headers: { ...auth(member), ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(status);
    if (message) expect(response.json().error).toBe(message);
  });

  test('an image bomb is refused without exhausting memory', async () => {
    const member = await signUpMember(t.app);
    const form = multipart({}, [{ field: 'profile_image', name: 'bomb.png', type: 'image/png', data: await imageBomb() }]);
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/update-user',
      headers: { ...auth(member), ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(400);
  });

  test('a bio over 180 characters and an unknown user type are 400s, and nothing is half-written', async () => {
    const member = await signUpMember(t.app);
    const headers = auth(member);
    const long = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/update-user',
      headers,
      payload: { bio: 'x'.repeat(181), display_name: 'Changed' },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe('Bio must be at most 180 characters');
    const me = await t.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers });
    expect(me.json().display_name).toBe('');
    expect(
      (await t.app.inject({ method: 'PATCH', url: '/api/user/update-user', headers, payload: { user_type: 'wizard' } })).statusCode,
    ).toBe(400);
    expect(
      (await t.app.inject({ method: 'PATCH', url: '/api/user/update-user', headers, payload: { bio: 'x'.repeat(180) } })).statusCode,
    ).toBe(200);
  });

  test('member search matches display and user names, any case, at most 8', async () => {
    const searcher = await signUpMember(t.app);
    for (let i = 0; i < 10; i++) {
      const member = await signUpMember(t.app, { userName: `search_hit_${i}` });
      await t.app.inject({
        method: 'PATCH',
        url: '/api/user/update-user',
        headers: auth(member),
        payload: { display_name: `Vinyl Vera ${i}` },
      });
    }
    const byDisplay = await post('/api/user/search', { searchString: 'vINYL' }, auth(searcher));
    expect(byDisplay.json()).toHaveLength(8);
    expect(byDisplay.json()[0]).toEqual({
      user_name: expect.stringMatching(/^search_hit_/),
      display_name: expect.stringMatching(/^Vinyl Vera/),
    });
    const byUserName = await post('/api/user/search', { searchString: 'SEARCH_HIT_3' }, auth(searcher));
    expect(byUserName.json()[0].user_name).toBe('search_hit_3');
    expect((await post('/api/user/search', { searchString: '%' }, auth(searcher))).json()).toEqual([]);
    expect((await post('/api/user/search', { searchString: 42 }, auth(searcher))).statusCode).toBe(400);
    expect((await post('/api/user/search', { searchString: 'vinyl' })).statusCode).toBe(401);
  });
});

test('unknown /api paths answer a JSON 404', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/nothing/here' });
  expect(response.statusCode).toBe(404);
  expect(response.json()).toMatchObject({ error: 'Not found' });
});
