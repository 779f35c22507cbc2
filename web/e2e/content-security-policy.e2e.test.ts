import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { solidImage } from '../../api/test/support/images';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { graphql, type Member, type PublishedMix, publishMix, signUpMember } from './support/world';

const baseUrl = inject('baseUrl');

let browser: Browser;
let dj: Member;
let mix: PublishedMix;
const contexts: BrowserContext[] = [];
/** What the browser refused under the policy: its securitypolicyviolation events and its console reports. */
const violations: string[] = [];
const pageErrors: string[] = [];

async function watchedPage(token?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  await context.exposeFunction('reportViolation', (report: string) => violations.push(report));
  await context.addInitScript(() => {
    const report = (window as unknown as { reportViolation(report: string): void }).reportViolation;
    document.addEventListener(
      'securitypolicyviolation',
      (event) => report(`${event.effectiveDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`),
      true,
    );
  });
  if (token) await context.addInitScript((value) => localStorage.setItem('token', value), token);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

/** Opens `path` and checks that the document came with the policy (so that no violation means it was obeyed). */
async function open(page: Page, path: string): Promise<void> {
  const response = await page.goto(`${baseUrl}${path}`);
  const policy = (await response?.allHeaders())?.['content-security-policy'] ?? '';
  expect(policy, path).toMatch(/script-src 'self' 'nonce-[^']+';/);
  expect(policy, path).toContain("frame-ancestors 'none'");
}

const waitForPlaying = (page: Page) => page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.5);

beforeAll(async () => {
  browser = await launchBrowser();
  dj = await signUpMember(baseUrl, undefined, 'policy');
  mix = await publishMix(baseUrl, dj, `Under the Policy ${dj.userName}`, 'techno');
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  expect(violations.splice(0)).toEqual([]);
  expect(pageErrors.splice(0)).toEqual([]);
});

describe('the web app under its Content-Security-Policy', () => {
  it('the landing page, and a shared mix page rendered by the server that hydrates and plays, break no rule', async () => {
    const page = await watchedPage();
    await open(page, '/');
    await page.getByRole('link', { name: 'Login' }).first().waitFor();

    await open(page, `/shared-mix/${mix.id}`);
    // The server's loader (an inline script with the nonce) asks for the app, which hydrates and answers Play.
    await page.getByRole('button', { name: `Play ${mix.title}` }).click();
    await waitForPlaying(page);
    await page.waitForFunction(() => [...document.images].some((image) => image.complete && image.naturalWidth > 0));
  });

  it('a member browses home, plays a mix with its live listener count, and opens its page', async () => {
    const listener = await signUpMember(baseUrl, undefined, 'policylistener');
    const page = await watchedPage(listener.token);
    await open(page, '/home?genre=techno');
    await page.getByRole('heading', { name: mix.title }).waitFor();
    // The carousel's card: the mix, played by the visitor before, may also be in the member's "For you" row.
    await page
      .getByRole('article', { name: mix.title })
      .getByRole('button', { name: `Play ${mix.title}` })
      .click();
    await waitForPlaying(page);
    const bar = page.getByRole('region', { name: 'Audio player' });
    await bar.getByRole('link', { name: mix.title }).click();
    await page.getByRole('heading', { name: 'Tracklist' }).waitFor();
  });

  it("a member crops a new profile image (the cropper's styles, a blob: preview) and saves it", async () => {
    const page = await watchedPage(dj.token);
    await open(page, `/profile/${dj.userName}`);
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await page
      .getByLabel('Choose image')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await solidImage('png', 640, 480) });
    const crop = page.getByRole('region', { name: 'Crop your image' });
    await crop.getByRole('button', { name: 'Done' }).click();
    await crop.waitFor({ state: 'detached' });
    expect(await page.getByAltText('Your profile').getAttribute('src')).toMatch(/^blob:/);
    await page.waitForFunction(() => {
      const preview = document.querySelector<HTMLImageElement>('img[alt="Your profile"]');
      return Boolean(preview?.complete && preview.naturalWidth > 0);
    });
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/user/update-user'));
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);
  });

  it('a cover and a mix opened on their own, under the media policy, show and play', async () => {
    const page = await watchedPage();
    const { mix: files } = await graphql<{ mix: { coverUrl: string; audioUrl: string } }>(
      baseUrl,
      null,
      'query($id: ID!) { mix(id: $id) { coverUrl audioUrl } }',
      { id: mix.id },
    );
    const cover = await page.goto(`${baseUrl}${files.coverUrl}`);
    expect((await cover?.allHeaders())?.['content-security-policy']).toContain("default-src 'none'");
    expect(await page.evaluate(() => document.images[0]?.naturalWidth)).toBe(400);
    await page.goto(`${baseUrl}${files.audioUrl}`);
    await page.waitForFunction(() => (document.querySelector('video')?.duration ?? 0) > 30);
  });
});
