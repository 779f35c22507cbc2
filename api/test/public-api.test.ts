import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, freshIp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { sineMp3 } from './support/audio.js';
import { solidImage } from './support/images.js';
import { createMixOver } from './support/upload.js';

const ELSEWHERE = 'https://tools.example.org';

/** Every method and path of the table in docs/public-api.md#rest-paths, as written there (payments, issue 18, land with their own routes). */
const SPEC_PATHS = [
  'POST /api/user/create-user',
  'POST /api/auth',
  'POST /api/auth/update-password',
  'POST /api/user/reset-password',
  'POST /api/user/check-password',
  'PUT /api/user/update-password',
  'PATCH /api/user/opt-in',
  'PATCH /api/user/add-username',
  'PATCH /api/user/update-location',
  'PATCH /api/user/add-user-type',
  'POST /api/user/add-random-mix',
  'PATCH /api/user/set-user-conduct',
  'PATCH /api/user/update-user',
  'GET /api/user/logged-in-user',
  'GET /api/user/by-user-name/{name}',
  'POST /api/user/search',
  'GET /api/user/get-following/{user_name}/{page}',
  'GET /api/user/get-followers/{user_name}/{page}',
  'GET /api/user/follow/{id}',
  'GET /api/user/saved-mixes-by-me',
  'POST /api/user/save-mix/{id}',
  'POST /api/user/remove-saved-mix/{id}',
  'POST /api/user/get-tracks-by-id',
  'POST /api/user/save-track',
  'POST /api/user/remove-track',
  'PATCH /api/user/deactivate-mix/{id}',
  'POST /api/user/save-current-mix',
  'POST /api/mix/create-mix',
  'POST /api/track/acquire-track-information',
  'POST /api/mix/update-mix',
  'GET /api/mix/upload/{id}',
  'POST /api/mix/publish-mix',
  'POST /api/mix/get-mixes-by-genre-and-distance',
  'GET /api/mix/by-user/{user_name}/0',
  'GET /api/mix/{id}',
  'GET /api/mix/public/{id}',
  'POST /api/mix/play/{id}',
  'POST /api/mix/pause/{id}',
  'POST /api/mix/add-new-listen/{id}',
  'POST /api/mix/pause-listen/{id}',
];

let t: TestApp;
let member: Member;
beforeAll(async () => {
  t = await createTestApp();
  member = await signUpMember(t.app);
}, 60_000);
afterAll(() => t.close());

describe('CORS', () => {
  test('/graphql answers a preflight from another origin and its answer carries Access-Control-Allow-Origin', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/graphql',
      headers: {
        origin: ELSEWHERE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    const answer = await gql(t.app, '{ __typename }', {}, undefined, {
      headers: { 'content-type': 'application/json', origin: ELSEWHERE },
    });
    expect(answer.status).toBe(200);
    const raw = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { origin: ELSEWHERE, 'content-type': 'application/json' },
      payload: { query: '{ __typename }' },
      remoteAddress: freshIp(),
    });
    expect(raw.headers['access-control-allow-origin']).toBe('*');
    expect(String(raw.headers['access-control-expose-headers'])).toContain('RateLimit-Remaining');
  });

  test("Apollo's CSRF prevention still refuses a simple cross-site POST", async () => {
    const simple = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { origin: ELSEWHERE, 'content-type': 'text/plain' },
      payload: JSON.stringify({ query: 'mutation { __typename }' }),
      remoteAddress: freshIp(),
    });
    expect(simple.statusCode).toBe(400);
    expect(simple.body).toMatch(/CSRF/);
    const form = await t.app.inject({
      method: 'GET',
      url: '/graphql?query=%7B__typename%7D',
      headers: { origin: ELSEWHERE },
      remoteAddress: freshIp(),
    });
    expect(form.statusCode).toBe(400);
  });

  test('public REST reads and the tus endpoint answer other origins; pages do not', async () => {
    const read = await t.app.inject({ method: 'GET', url: `/api/user/by-user-name/${member.userName}`, headers: { origin: ELSEWHERE } });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe('*');
    const tusPreflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/uploads',
      headers: {
        origin: ELSEWHERE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'upload-length, tus-resumable',
      },
    });
    expect(tusPreflight.statusCode).toBe(204);
    expect(tusPreflight.headers['access-control-allow-origin']).toBe(ELSEWHERE);
    expect(String(tusPreflight.headers['access-control-allow-headers'])).toMatch(/Upload-Length/i);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { origin: ELSEWHERE, 'tus-resumable': '1.0.0', 'upload-length': '1000', 'x-auth-token': member.token },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['access-control-allow-origin']).toBe(ELSEWHERE);
    expect(String(created.headers['access-control-expose-headers'])).toMatch(/Location/);
    const page = await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: ELSEWHERE } });
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('/media files carry Access-Control-Allow-Origin, so another site can fetch ranges of them', async () => {
    const mix = await createMixOver(t.app, member.token, {
      cover: await solidImage('jpeg', 400, 400),
      mp3: sineMp3({ seconds: 2, kbps: 128, envelope: () => 0.4 }),
      title: 'CORS media',
      genre: 'house',
    });
    const ranged = await t.app.inject({ method: 'GET', url: mix.cover, headers: { origin: ELSEWHERE, range: 'bytes=0-9' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['access-control-allow-origin']).toBe('*');
    expect(String(ranged.headers['access-control-expose-headers'])).toContain('Content-Range');
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: mix.cover,
      headers: { origin: ELSEWHERE, 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  describe('with CORS_ORIGINS listing origins', () => {
    let listed: TestApp;
    beforeAll(async () => {
      listed = await createTestApp({ CORS_ORIGINS: `${ELSEWHERE}, https://second.example.org` });
      await listed.app.listen({ port: 0, host: '127.0.0.1' });
    }, 60_000);
    afterAll(() => listed.close());

    test('a listed origin is reflected, any other gets no CORS headers', async () => {
      const ok = await listed.app.inject({ method: 'GET', url: '/api/mix/public/nothing', headers: { origin: ELSEWHERE } });
      expect(ok.headers['access-control-allow-origin']).toBe(ELSEWHERE);
      expect(String(ok.headers.vary)).toMatch(/Origin/);
      const other = await listed.app.inject({ method: 'GET', url: '/api/mix/public/nothing', headers: { origin: 'https://evil.example' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const tus = await listed.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { origin: 'https://evil.example', 'tus-resumable': '1.0.0', 'upload-length': '1000', 'x-auth-token': member.token },
      });
      expect(tus.headers['access-control-allow-origin']).toBeUndefined();
    });

    test('the WebSocket accepts its own origin, listed origins and clients without an Origin; refuses the rest', async () => {
      const address = listed.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const opens = (origin?: string) =>
        new Promise<boolean>((resolve) => {
          const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', origin ? { origin } : {});
          socket.on('open', () => {
            socket.close();
            resolve(true);
          });
          socket.on('error', () => resolve(false));
        });
      expect(await opens(ELSEWHERE)).toBe(true);
      expect(await opens(`http://127.0.0.1:${port}`)).toBe(true);
      expect(await opens()).toBe(true);
      expect(await opens('https://evil.example')).toBe(false);
    });
  });
});

describe('health probes and unknown paths', () => {
  test('/healthz answers alive, /readyz checks the database, migrations and jobs', async () => {
    const alive = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(alive.statusCode).toBe(200);
    expect(alive.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', jobs: 'ok' } });
  });

  test('/readyz answers 503 when a migration is pending', async () => {
    const sql = (text: string) => t.services.orm.em.fork().getConnection().execute(text);
    const [last] = await sql(`select name from mikro_orm_migrations order by id desc limit 1`);
    await sql(`delete from mikro_orm_migrations where name = '${last.name}'`);
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.migrations).toMatch(/1 pending/);
    } finally {
      await sql(`insert into mikro_orm_migrations (name, executed_at) values ('${last.name}', now())`);
    }
  });

  test('unknown API and docs paths answer 404 JSON', async () => {
    for (const url of ['/api/nothing-here', '/docs/x/y', '/api']) {
      const response = await t.app.inject({ method: 'GET', url, remoteAddress: freshIp() });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/application\/json/);
    }
  });
});

describe('OpenAPI and docs', () => {
  test('/api/openapi.json is a valid OpenAPI 3.1 document listing every path (docs/public-api.md#rest-paths)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(document));
    const missing = SPEC_PATHS.map((line) => line.replace('/by-user/{user_name}/0', '/by-user/{user_name}/{page}').split(' ')).filter(
      ([method, path]) => !document.paths[path]?.[method.toLowerCase()],
    );
    expect(missing).toEqual([]);
    expect(document.paths['/api/user/follow/{id}'].post.summary).toMatch(/Toggle/);
    expect(document.paths['/api/mix/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
  });

  test('every REST route is described, and nothing else is', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const { OPERATIONS } = await import('../src/http/public-api/openapi.js');
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(Object.keys(OPERATIONS).sort());
  });

  test('/docs serves the API reference from our own files', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/swagger-ui/);
    expect(page.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)/);
  });
});

test('POST /api/user/follow/{id} toggles a follow, as the documented GET does', async () => {
  const other = await signUpMember(t.app);
  const headers = { 'x-auth-token': member.token };
  const followed = await t.app.inject({ method: 'POST', url: `/api/user/follow/${other.id}`, headers });
  expect(followed.json()).toEqual({ code: 'FOLLOWED' });
  const unfollowed = await t.app.inject({ method: 'GET', url: `/api/user/follow/${other.id}`, headers });
  expect(unfollowed.json()).toEqual({ code: 'UNFOLLOWED' });
});

describe('the embed player', () => {
  test('/embed/mix/{id} is a compact player page any site may frame: cover, title, audio, a link back', async () => {
    const { publishedMix } = await import('./support/mixes.js');
    const dj = await signUpMember(t.app);
    const named = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/update-user',
      headers: { 'x-auth-token': dj.token },
      payload: { display_name: 'DJ <b>"Hi"</b>' },
    });
    expect(named.statusCode).toBe(200);
    const mixId = await publishedMix(t.app, t.services, dj, { title: 'Embed <me>', genre: 'techno' });
    const response = await t.app.inject({ method: 'GET', url: `/embed/mix/${mixId}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(String(response.headers['content-security-policy'])).toContain('frame-ancestors *');
    const html = response.body;
    expect(html).toContain('<h1><a href="http://localhost:4000/shared-mix/');
    expect(html).toContain('Embed &lt;me&gt;');
    // The raw text is nowhere: not in the heading, not in the DJ line (the escaped text alone also sits in <title> and alt).
    expect(html).not.toContain('<me>');
    expect(html).not.toContain('<b>');
    expect(html).toMatch(/<h1><a [^>]+>Embed &lt;me&gt;<\/a><\/h1>/);
    expect(html).toContain('<p class="by">DJ &lt;b&gt;&quot;Hi&quot;&lt;/b&gt; · Techno</p>');
    expect(html).toMatch(/<img src="\/media\/mix\/mix-images\/[^"]+" alt="Cover of Embed &lt;me&gt;"/);
    expect(html).toMatch(/<audio controls preload="none" src="\/media\/mix\/mix-audio\/[^"]+"/);
    expect(html).toContain('Listen on mixcrate');
    const oembed = await t.app.inject({
      method: 'GET',
      url: `/api/oembed?url=${encodeURIComponent(`http://localhost:4000/shared-mix/${mixId}`)}`,
    });
    expect(oembed.json().html).toContain(`<iframe src="http://localhost:4000/embed/mix/${mixId}" width="480" height="160"`);
  });

  test('an unknown or unpublished mix answers 404 with the documented words; other pages may not be framed', async () => {
    const { draftMix } = await import('./support/mixes.js');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', await draftMix(t.services, member)]) {
      const response = await t.app.inject({ method: 'GET', url: `/embed/mix/${id}` });
      expect(response.statusCode, id).toBe(404);
      expect(response.body).toContain('No mix found :-/');
      expect(response.body).toContain('Sorry, that mix may have been removed.');
    }
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(String(docs.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});

test('GET /graphql from a browser opens the explorer; without a web build it says how to get one', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/graphql', headers: { accept: 'text/html' } });
  expect(response.statusCode).toBe(200);
  expect(response.body).toContain('npm run build -w web');
  expect(response.body).not.toMatch(/apollographql|cdn\./);
});
