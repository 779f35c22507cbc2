import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { graphql, type Member, type PublishedMix, publishMix, signUpMember } from './support/world';

const baseUrl = inject('baseUrl');

/**
 * A third-party page: another origin (its own port), plain script, no mixcrate code. It queries /graphql, subscribes
 * over the graphql-ws socket (the protocol written out by hand) and plays a mix's /media file in an audio element that
 * asks for CORS (crossorigin="anonymous"), so every one of those answers must allow this origin.
 */
const thirdPartyPage = (api: string, mixId: string, userName: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A tool built on mixcrate</title></head>
<body>
<h1>A tool built on mixcrate</h1>
<script>
window.results = { query: null, subscription: null, socketError: null };
(async () => {
  const response = await fetch('${api}/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'query ($id: ID!) { mix(id: $id) { title audioUrl } }', variables: { id: '${mixId}' } }),
  });
  const body = await response.json();
  window.results.query = { status: response.status, remaining: response.headers.get('RateLimit-Remaining'), mix: body.data.mix };
  const audio = document.createElement('audio');
  audio.crossOrigin = 'anonymous';
  audio.src = '${api}' + body.data.mix.audioUrl;
  audio.muted = true;
  document.body.append(audio);
  window.audio = audio;

  const socket = new WebSocket('${api.replace('http', 'ws')}/graphql', 'graphql-transport-ws');
  socket.onerror = () => { window.results.socketError = 'error'; };
  socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'connection_ack') {
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { profileUpdated(userName: "${userName}") { displayName } }' } }));
      window.results.subscribed = true;
    }
    if (message.type === 'next') window.results.subscription = message.payload.data;
  };
})().catch((error) => { window.results.error = String(error); });
</script>
</body></html>`;

let browser: Browser;
let tool: Server;
let toolUrl: string;
let dj: Member;
let mix: PublishedMix;

beforeAll(async () => {
  browser = await launchBrowser();
  dj = await signUpMember(baseUrl, undefined, 'cors');
  mix = await publishMix(baseUrl, dj, `Across Origins ${dj.userName}`, 'techno', 20);
  tool = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(thirdPartyPage(baseUrl, mix.id, dj.userName));
  });
  await new Promise<void>((resolve) => tool.listen(0, '127.0.0.1', resolve));
  // localhost, not 127.0.0.1: another host as well as another port, whatever the browser makes of same-site.
  toolUrl = `http://localhost:${(tool.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => tool?.close(resolve));
});

it('a page on another origin queries /graphql, subscribes over the socket and plays /media', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(toolUrl);
  expect(new URL(page.url()).origin).not.toBe(new URL(baseUrl).origin);

  await page.waitForFunction(() => (window as unknown as { results: { query: unknown } }).results.query !== null);
  const query = await page.evaluate(() => (window as unknown as { results: { query: Record<string, unknown> } }).results.query);
  expect(query).toMatchObject({ status: 200, mix: { title: mix.title } });
  expect(Number(query.remaining)).toBeGreaterThan(0);

  await page.waitForFunction(() => (window as unknown as { results: { subscribed?: boolean } }).results.subscribed === true);
  // The server starts listening as it takes the subscribe message, which it does not answer: the change (published
  // each time it is made) is made again until the page hears it.
  await expect
    .poll(
      async () => {
        await graphql(baseUrl, dj.token, 'mutation { updateProfile(input: { displayName: "Seen elsewhere" }) { id } }');
        return page.evaluate(() => (window as unknown as { results: { subscription: unknown } }).results.subscription !== null);
      },
      { timeout: 30_000, interval: 250, message: 'the page to hear the profile change' },
    )
    .toBe(true);
  expect(await page.evaluate(() => (window as unknown as { results: { subscription: unknown } }).results.subscription)).toEqual({
    profileUpdated: { displayName: 'Seen elsewhere' },
  });

  await page.evaluate(() => (window as unknown as { audio: HTMLAudioElement }).audio.play());
  await page.waitForFunction(() => (window as unknown as { audio: HTMLAudioElement }).audio.currentTime > 0.5, undefined, {
    timeout: 15_000,
  });
  expect(errors).toEqual([]);
  await context.close();
});
