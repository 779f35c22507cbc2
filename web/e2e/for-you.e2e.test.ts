import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { type Member, type PublishedMix, publishMix, signUpMember } from './support/world';

/** The "For you" row on /home (docs/home-feed.md#for-you). `FOR_YOU_SCREENSHOTS=../docs/screenshots` photographs it. */
const baseUrl = inject('baseUrl');
const screenshots = process.env.FOR_YOU_SCREENSHOTS;
const BERLIN = { latitude: 52.52, longitude: 13.405 };

let browser: Browser;
let seed: PublishedMix;
let liked: PublishedMix;
let saver: Member;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

async function rest(path: string, token?: string) {
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: token ? { 'x-auth-token': token } : {} });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
}

async function openHome(member: Member, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  contexts.push(context);
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  await context.addInitScript((value) => localStorage.setItem('token', value), member.token);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}/home`);
  await page.getByRole('heading', { level: 2, name: 'For you' }).waitFor();
  await page.getByRole('list', { name: 'For you' }).waitFor();
  return page;
}

async function checkPage(page: Page, name: string, width: number) {
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page), `${name} at ${width} px`).toEqual([]);
  if (screenshots) {
    await mkdir(screenshots, { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(screenshots, `${name}-${width}.png`) });
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  const dj = await signUpMember(baseUrl, BERLIN, 'foryou_dj');
  seed = await publishMix(baseUrl, dj, `Spree Dawn ${dj.userName.slice(-4)}`, 'techno');
  liked = await publishMix(baseUrl, dj, `Kreuzberg Nights ${dj.userName.slice(-4)}`, 'techno');
  // This week's listens (visitors' plays), so the row has popular mixes to offer a newcomer.
  for (const mix of [seed, liked, liked]) await rest(`/api/mix/play/${mix.id}`);
  saver = await signUpMember(baseUrl, BERLIN, 'foryou_saver');
  await rest(`/api/user/save-mix/${seed.id}`, saver.token);
  // Another listener saved the same mix, and one more.
  const neighbour = await signUpMember(baseUrl, BERLIN, 'foryou_fan');
  await rest(`/api/user/save-mix/${seed.id}`, neighbour.token);
  await rest(`/api/user/save-mix/${liked.id}`, neighbour.token);
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  expect(pageErrors.splice(0)).toEqual([]);
});

describe.each([390, 1280])('For you at %i px', (width) => {
  it('a new member sees "Popular near you" above the carousel', async () => {
    const newcomer = await signUpMember(baseUrl, BERLIN, 'foryou_new');
    const page = await openHome(newcomer, width);
    const row = page.getByRole('list', { name: 'For you' });
    const reasons = await row.locator('[data-reason]').allTextContents();
    expect(reasons.length).toBeGreaterThan(0);
    expect(new Set(reasons)).toEqual(new Set(['Popular near you']));
    const card = row.getByRole('listitem').filter({ has: page.getByRole('link', { name: liked.title }) });
    await card.getByText('Popular near you').waitFor();
    // The row comes before the carousel in the page (and in reading order), once the carousel has loaded too.
    await page.locator('section[aria-label="Mixes"]').waitFor();
    const before = await page.evaluate(() => {
      const heading = document.getElementById('for-you-title');
      const carousel = document.querySelector('section[aria-label="Mixes"]');
      return Boolean(heading && carousel && heading.compareDocumentPosition(carousel) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(before).toBe(true);
    // The row scrolls within itself: the page never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await checkPage(page, 'home-for-you-new-member', width);
  });

  it('a member with saves sees "Because you saved …", reaches it with the keyboard and opens it', async () => {
    const page = await openHome(saver, width);
    const row = page.getByRole('list', { name: 'For you' });
    const first = row.getByRole('listitem').first();
    await first.getByText(`Because you saved ${seed.title}`).waitFor();
    expect(await first.getByRole('link').textContent()).toBe(liked.title);
    expect(await row.getByRole('link', { name: seed.title }).count()).toBe(0);
    await checkPage(page, 'home-for-you-saves', width);

    // Keyboard: focus the card's Play button, Tab once more to its title, Enter opens the mix page.
    await first.getByRole('button', { name: `Play ${liked.title}` }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(liked.title);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/mix/${liked.id}`);
  });
});
