import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix, publishedMix } from './support/mixes.js';

const PUBLIC_URL = 'https://mixcrate.example';
const INDEX = `<!doctype html><html><head><meta charset="UTF-8" /><meta name="description" content="generic" /><title>mixcrate</title><script type="module" crossorigin src="/assets/index-1.js"></script><link rel="modulepreload" crossorigin href="/assets/react-1.js"><link rel="stylesheet" crossorigin href="/assets/index-1.css"></head><body><div id="root"></div></body></html>`;

/** A Vite manifest: the entry (already in INDEX), the GraphQL layout with a shared chunk, the two shared screens. */
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', imports: ['_react.js'] },
  '_react.js': { file: 'assets/react-1.js' },
  '_apollo.js': { file: 'assets/apollo-1.js' },
  'src/lib/GraphQLBoundary.tsx': {
    file: 'assets/GraphQLBoundary-1.js',
    css: ['assets/GraphQLBoundary-1.css'],
    imports: ['_apollo.js', '_react.js'],
  },
  'src/pages/mix/SharedMixPage.tsx': { file: 'assets/SharedMixPage-1.js', imports: ['_apollo.js'] },
  'src/pages/profile/SharedProfilePage.tsx': { file: 'assets/SharedProfilePage-1.js' },
};

/**
 * A stand-in for the web build's server renderer (dist-server/render.js beside dist/): it asks the API's schema for the
 * mix as the real one does, renders its title, and fails for a title that says so.
 */
const RENDERER = `
export async function renderPage(path, execute) {
  const id = /^\\/shared-mix\\/(.+)$/.exec(path)?.[1];
  if (!id) return null;
  const data = await execute('query Probe($id: ID!) { mix(id: $id) { id title isOwner } }', { id });
  if (!data?.mix) return null;
  if (data.mix.title.includes('breaks the renderer')) throw new Error('a renderer bug');
  return { html: '<main><h1>rendered</h1></main>', state: { mix: data.mix } };
}`;

let t: TestApp;
let buildDir: string;
let webRoot: string;
let dj: Member;
let mixId: string;

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'mixcrate-share-'));
  webRoot = join(buildDir, 'dist');
  await mkdir(webRoot);
  await mkdir(join(buildDir, 'dist-server'));
  await writeFile(join(buildDir, 'dist-server', 'render.js'), RENDERER);
  await writeFile(join(webRoot, 'index.html'), INDEX);
  await mkdir(join(webRoot, 'assets'));
  await writeFile(join(webRoot, 'assets', 'index-1.css'), 'body{margin:0}');
  await writeFile(join(webRoot, 'assets', 'GraphQLBoundary-1.css'), '._player_1{position:fixed}');
  await mkdir(join(webRoot, '.vite'));
  await writeFile(join(webRoot, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  t = await createTestApp({ PUBLIC_URL }, undefined, webRoot);
  dj = await signUpMember(t.app, { userName: `share_${Date.now().toString(36)}`, userType: 'dj' });
  await t.app.inject({
    method: 'PATCH',
    url: '/api/user/update-user',
    headers: { 'x-auth-token': dj.token },
    payload: { display_name: 'DJ "Quote" <script>alert(1)</script>', bio: 'Deep cuts & long blends' },
  });
  mixId = await publishedMix(t.app, t.services, dj, { title: 'Sunrise <b>Set</b> & "friends"', genre: 'deep_house' });
});
afterAll(async () => {
  await t.close();
  await rm(buildDir, { recursive: true, force: true });
});

const page = async (path: string) => {
  const response = await t.app.inject({ method: 'GET', url: path });
  return { status: response.statusCode, html: response.body, type: response.headers['content-type'] };
};

describe('shared links unfurl', () => {
  test('a shared mix page carries escaped OpenGraph and Twitter tags with absolute URLs and the oEmbed link', async () => {
    const { status, html, type } = await page(`/shared-mix/${mixId}`);
    expect(status).toBe(200);
    expect(type).toContain('text/html');
    expect(html).toContain('<meta property="og:title" content="Sunrise &lt;b&gt;Set&lt;/b&gt; &amp; &quot;friends&quot;" />');
    expect(html).toContain('<meta property="og:type" content="music.song" />');
    expect(html).toContain('content="Mix by DJ &quot;Quote&quot; &lt;script&gt;alert(1)&lt;/script&gt; · Deep House"');
    expect(html).toMatch(new RegExp(`<meta property="og:image" content="${PUBLIC_URL}/media/mix/mix-images/[^"]+" />`));
    expect(html).toMatch(
      new RegExp(`<link rel="preload" as="image" href="${PUBLIC_URL}/media/mix/mix-images/[^"]+" fetchpriority="high" />`),
    );
    expect(html).toMatch(new RegExp(`<meta property="og:audio" content="${PUBLIC_URL}/media/mix/mix-audio/[^"]+" />`));
    expect(html).toContain(`<meta property="og:url" content="${PUBLIC_URL}/shared-mix/${mixId}" />`);
    expect(html).toContain('<meta name="twitter:card" content="player" />');
    expect(html).toContain(`<meta name="twitter:player" content="${PUBLIC_URL}/embed/mix/${mixId}" />`);
    expect(html).toContain('<meta name="twitter:player:width" content="480" />');
    expect(html).toMatch(new RegExp(`<meta name="twitter:player:stream" content="${PUBLIC_URL}/media/mix/mix-audio/[^"]+" />`));
    expect(html).toContain(
      `href="${PUBLIC_URL}/api/oembed?url=${encodeURIComponent(`${PUBLIC_URL}/shared-mix/${mixId}`)}&amp;format=json"`,
    );
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('content="generic"');
  });

  test('a shared mix page comes rendered, with the data it was rendered from as JSON no title can break out of', async () => {
    const { html } = await page(`/shared-mix/${mixId}`);
    expect(html).toContain('<div id="root"><main><h1>rendered</h1></main></div>');
    const state = /<script type="application\/json" id="mixcrate-state">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(state).not.toContain('<');
    // Asked as an anonymous visitor: the page shows what anybody may see.
    expect(JSON.parse(state)).toEqual({ mix: { id: mixId, title: 'Sunrise <b>Set</b> & "friends"', isOwner: false } });
    // The styles its markup needs come inline, the entry's and the screen's: no request stands before the first paint.
    expect(html).toContain('<style>body{margin:0}\n._player_1{position:fixed}</style>');
    expect(html).not.toContain('as="style"');
    // Each inlined stylesheet is named by a disabled link (never fetched), so the app's chunk loader asks for none again.
    const links = [...html.matchAll(/<link rel="stylesheet"[^>]*>/g)].map(([tag]) => tag);
    expect(links).toEqual(['<link rel="stylesheet" disabled crossorigin href="/assets/GraphQLBoundary-1.css" />']);
  });

  test('a renderer failure leaves the page to the browser, never a 500', async () => {
    const broken = await publishedMix(t.app, t.services, dj, { title: 'This one breaks the renderer', genre: 'techno' });
    const { status, html } = await page(`/shared-mix/${broken}`);
    expect(status).toBe(200);
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('mixcrate-state');
    expect(html).toContain('<meta property="og:title" content="This one breaks the renderer" />');
  });

  test('a shared page preloads its screen and what it imports, once each, beyond what the entry loads', async () => {
    // A page the renderer does not render (profiles) is drawn by the browser: its scripts and styles are preloaded.
    const profile = (await page(`/shared-profile/${dj.userName}`)).html;
    const preloaded = [...profile.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)" \/>/g)].map((match) => match[1]);
    expect(preloaded.sort()).toEqual(['/assets/GraphQLBoundary-1.js', '/assets/SharedProfilePage-1.js', '/assets/apollo-1.js']);
    expect(profile).toContain('<link rel="preload" as="style" crossorigin href="/assets/GraphQLBoundary-1.css" />');
    expect(profile).toContain('<link rel="stylesheet" crossorigin href="/assets/index-1.css">');
    expect(profile).toContain('<script type="module" crossorigin src="/assets/index-1.js"></script>');
    expect(profile).not.toContain('<style>');
    expect(profile).toContain('<div id="root"></div>');
  });

  test('a rendered page asks for the app once it has painted: every chunk of its screen and the entry, each its own module script, once', async () => {
    const { html } = await page(`/shared-mix/${mixId}`);
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
    const loader = /<script nonce="[^"]+">(var held=.*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(loader).toContain("list.getEntriesByName('first-contentful-paint').length)start()");
    expect(loader).toContain('setTimeout(start,1000)');
    // Until the app answers, clicks on the page's buttons are held for it.
    expect(loader).toContain("document.addEventListener('click',hold,true)");
    expect(JSON.parse(/(\[[^\]]*\])\.forEach/.exec(loader)?.[1] ?? '[]')).toEqual([
      '/assets/react-1.js',
      '/assets/GraphQLBoundary-1.js',
      '/assets/apollo-1.js',
      '/assets/SharedMixPage-1.js',
      '/assets/index-1.js',
    ]);
    expect(loader).toContain("script.type='module'");
  });

  test('a shared profile page describes the member', async () => {
    const { html } = await page(`/shared-profile/${dj.userName}`);
    expect(html).toContain('<meta property="og:type" content="profile" />');
    expect(html).toContain('<meta property="og:description" content="DJ · Deep cuts &amp; long blends" />');
  });

  test('unknown mixes, drafts and members answer 404 with the not-found words, no generic tags (no soft 404)', async () => {
    const draft = await draftMix(t.services, dj);
    for (const path of ['/shared-mix/00000000-0000-4000-8000-000000000000', `/shared-mix/${draft}`]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(404);
      expect(html).toContain('<h1>No mix found :-/</h1><p>Sorry, that mix may have been removed.</p>');
      expect(html).not.toContain('og:title');
    }
    const member = await page('/shared-profile/nobody_here');
    expect(member.status).toBe(404);
    expect(member.html).toContain('<h1>No member found</h1>');
  });
});

describe('oEmbed', () => {
  const oembed = (query: string) => t.app.inject({ method: 'GET', url: `/api/oembed?${query}` });

  test('answers a rich embed for a shared mix and a link card for a profile', async () => {
    const response = await oembed(`url=${encodeURIComponent(`${PUBLIC_URL}/shared-mix/${mixId}`)}&maxwidth=300`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      version: '1.0',
      type: 'rich',
      provider_name: 'mixcrate',
      provider_url: PUBLIC_URL,
      title: 'Sunrise <b>Set</b> & "friends"',
      author_url: `${PUBLIC_URL}/shared-profile/${dj.userName}`,
      width: 300,
      thumbnail_width: 400,
    });
    // A mix embeds its compact player, at the player's height.
    expect(body.html).toContain(`<iframe src="${PUBLIC_URL}/embed/mix/${mixId}" width="300" height="160"`);
    const profile = await oembed(`url=${encodeURIComponent(`${PUBLIC_URL}/shared-profile/${dj.userName}`)}`);
    expect(profile.json()).toMatchObject({ type: 'rich', author_name: 'DJ "Quote" <script>alert(1)</script>' });
  });

  test('bad requests are clear 4xx answers; XML is not offered', async () => {
    expect((await oembed('')).statusCode).toBe(400);
    expect((await oembed('url=not-a-url')).statusCode).toBe(400);
    expect((await oembed(`url=${encodeURIComponent(`${PUBLIC_URL}/shared-mix/${mixId}`)}&maxwidth=abc`)).statusCode).toBe(400);
    expect((await oembed(`url=${encodeURIComponent(`https://elsewhere.example/shared-mix/${mixId}`)}`)).statusCode).toBe(404);
    expect((await oembed(`url=${encodeURIComponent(`${PUBLIC_URL}/home`)}`)).statusCode).toBe(404);
    const xml = await oembed(`url=${encodeURIComponent(`${PUBLIC_URL}/shared-mix/${mixId}`)}&format=xml`);
    expect(xml.statusCode).toBe(501);
  });
});
