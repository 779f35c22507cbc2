import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { answeredOperations } from './support/graphql-traffic';
import { type Member, type PublishedMix, publishMix, signUpMember } from './support/world';

const baseUrl = inject('baseUrl');
const BERLIN = { latitude: 52.52, longitude: 13.405 };
const POTSDAM = { latitude: 52.39, longitude: 13.065 };

let browser: Browser;
let dj: Member;
let listener: Member;
let techno: PublishedMix;
let house: PublishedMix;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

async function openPage(token?: string, width = 1280, timezoneId?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, timezoneId });
  contexts.push(context);
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  if (token) await context.addInitScript((value) => localStorage.setItem('token', value), token);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

const audioState = (page: Page) =>
  page.evaluate(() => {
    const audio = document.querySelector('audio');
    return { paused: audio?.paused ?? true, time: audio?.currentTime ?? 0, src: audio?.currentSrc ?? '' };
  });

async function waitForTimeAbove(page: Page, seconds: number) {
  await page.waitForFunction((at) => (document.querySelector('audio')?.currentTime ?? 0) > at, seconds, { timeout: 15_000 });
}

beforeAll(async () => {
  browser = await launchBrowser();
  dj = await signUpMember(baseUrl, BERLIN, 'berlin');
  listener = await signUpMember(baseUrl, POTSDAM, 'potsdam');
  techno = await publishMix(baseUrl, dj, `Techno in the Tunnel ${dj.userName}`, 'techno');
  house = await publishMix(baseUrl, dj, `House on the Roof ${dj.userName}`, 'house');
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  expect(pageErrors.splice(0)).toEqual([]);
});

describe('home, filter and the player', () => {
  it('filters by genre and distance, plays a mix and keeps playing across pages, with keys and a remembered position', async () => {
    const page = await openPage(listener.token);
    await page.goto(`${baseUrl}/home?genre=techno`);
    const chip = page.getByRole('button', { name: /^Techno · 20,000 km · 1\/\d+$/ });
    await chip.waitFor();
    await page.getByRole('heading', { name: techno.title }).waitFor();
    // The DJ is about 26 km away (Berlin from Potsdam).
    await page
      .getByText(/^2\d km$/)
      .first()
      .waitFor();

    await chip.click();
    await page.locator('label', { hasText: /^House$/ }).click();
    await page.getByRole('radio', { name: 'House', exact: true, checked: true }).waitFor({ state: 'attached' });
    await page.getByRole('heading', { name: house.title }).waitFor();
    await page.getByLabel(/^Distance/).fill('10');
    await page.getByText('No results - upload a mix?').waitFor();
    await page.getByLabel(/^Distance/).fill('50');
    await page.getByRole('heading', { name: house.title }).waitFor();
    expect(new URL(page.url()).searchParams.get('km')).toBe('50');

    await page.getByRole('button', { name: `Play ${house.title}` }).click();
    await waitForTimeAbove(page, 1);
    const bar = page.getByRole('region', { name: 'Audio player' });
    await bar.getByRole('link', { name: house.title }).waitFor();
    await page.getByRole('button', { name: `Pause ${house.title}` }).waitFor();

    // Navigate to the mix page: the same audio keeps playing.
    await page.getByRole('link', { name: house.title }).first().click();
    await page.waitForURL(`${baseUrl}/mix/${house.id}`);
    await page.getByRole('heading', { name: 'Tracklist' }).waitFor();
    const before = await audioState(page);
    await waitForTimeAbove(page, before.time + 0.5);
    expect((await audioState(page)).paused).toBe(false);

    // Space pauses, the right arrow seeks 10 s.
    await page.locator('body').press(' ');
    await page.waitForFunction(() => document.querySelector('audio')?.paused === true);
    const paused = await audioState(page);
    await page.locator('body').press('ArrowRight');
    await page.waitForFunction((at) => (document.querySelector('audio')?.currentTime ?? 0) >= at + 9.5, paused.time);
    const remembered = (await audioState(page)).time;

    // Pausing remembers the mix and position for the member: a new visit restores them.
    const saves = answeredOperations(page, 'SaveCurrentMix');
    await page.locator('body').press(' ');
    await waitForTimeAbove(page, remembered + 0.3);
    await page.locator('body').press(' ');
    await page.waitForFunction(() => document.querySelector('audio')?.paused === true);
    const saved = (await audioState(page)).time;
    await expect
      .poll(() => saves.some((save) => Math.abs(Number(save.position) - saved) < 0.5), {
        timeout: 30_000,
        message: 'the server to store the paused position',
      })
      .toBe(true);
    const again = await openPage(listener.token);
    await again.goto(`${baseUrl}/home`);
    await again.getByRole('region', { name: 'Audio player' }).getByRole('link', { name: house.title }).waitFor();
    await again.waitForFunction((at) => Math.abs((document.querySelector('audio')?.currentTime ?? 0) - at) < 2.5, saved);
  });

  it('saves a mix from its page and lists it in saved mixes, then removes it', async () => {
    const page = await openPage(listener.token);
    await page.goto(`${baseUrl}/mix/${techno.id}`);
    await page.getByRole('button', { name: `Save ${techno.title}` }).click();
    await page.getByRole('button', { name: `Remove ${techno.title} from saved mixes` }).waitFor();
    await page.goto(`${baseUrl}/saved-mix`);
    await page.getByRole('heading', { name: 'Saved mixes' }).waitFor();
    const row = page.getByRole('listitem').filter({ hasText: techno.title });
    await row.getByText(/^Published: /).waitFor();
    await row.getByRole('button', { name: `Remove ${techno.title} from saved mixes` }).click();
    await page.getByText('No saved mixes yet').waitFor();
  });

  it('opens a shared mix signed out: no save, no distance, plays; an unknown mix says so without a back button', async () => {
    const page = await openPage();
    await page.goto(`${baseUrl}/shared-mix/${techno.id}`);
    await page.getByText('Shared by:').waitFor();
    await page.getByRole('heading', { name: 'Tracklist' }).waitFor();
    expect(await page.getByRole('button', { name: /^Save / }).count()).toBe(0);
    expect(await page.getByText(/ km$/).count()).toBe(0);
    await page.getByRole('button', { name: `Play ${techno.title}` }).click();
    await waitForTimeAbove(page, 0.5);

    await page.goto(`${baseUrl}/shared-mix/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { name: 'No mix found :-/' }).waitFor();
    await page.getByText('Sorry, that mix may have been removed.').waitFor();
    expect(await page.getByRole('link', { name: 'Back to home' }).count()).toBe(0);
  });

  it('a shared mix arrives rendered by the server and hydrates in place: no second render, no request for its data', async () => {
    const url = `${baseUrl}/shared-mix/${house.id}`;
    const withoutScripts = await browser.newContext({ javaScriptEnabled: false });
    contexts.push(withoutScripts);
    const plain = await withoutScripts.newPage();
    await plain.goto(url);
    await plain.getByRole('heading', { name: house.title }).waitFor();
    await plain.getByRole('heading', { name: 'Tracklist' }).waitFor();
    await plain.getByText('Shared by:').waitFor();

    // A time zone where today is another day than in UTC, where the server renders dates.
    const timezoneId = new Date().getUTCHours() < 12 ? 'Etc/GMT+12' : 'Etc/GMT-14';
    const page = await openPage(undefined, 390, timezoneId);
    const mixQueries: string[] = [];
    const stylesheets: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.postData()?.includes('"operationName":"MixPage"')) mixQueries.push(request.url());
      if (request.resourceType() === 'stylesheet') stylesheets.push(request.url());
    });
    // Hydration that gave up (markup unlike the client's) would replace the server's card with a new one.
    await page.addInitScript(() => {
      const removed: string[] = [];
      Object.assign(window, { removedCards: removed });
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.removedNodes)
            if (node instanceof Element && node.querySelector('article, h1, h2')) removed.push(node.tagName);
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(url);
    await page.getByRole('button', { name: `Play ${house.title}` }).click();
    await waitForTimeAbove(page, 0.5);
    expect(await page.evaluate(() => (window as unknown as { removedCards: string[] }).removedCards)).toEqual([]);
    expect(mixQueries).toEqual([]);
    // Its styles came inline: hydrating its screen fetches none of them again.
    expect(stylesheets).toEqual([]);
    const localDate = await page.evaluate(() => {
      const today = new Date();
      return [today.toLocaleString('en', { month: 'short' }), today.getDate()];
    });
    await page.getByText(new RegExp(`^${localDate[0]} ${localDate[1]}(st|nd|rd|th) \\d\\d$`)).waitFor();

    // A member who follows a shared link sees it with their session: the browser renders it and asks for it.
    const member = await openPage(listener.token);
    const memberQueries: string[] = [];
    member.on('request', (request) => {
      if (request.postData()?.includes('"operationName":"MixPage"')) memberQueries.push(request.url());
    });
    const asked = member.waitForRequest((request) => request.postData()?.includes('"operationName":"MixPage"') ?? false);
    await member.goto(url);
    await asked;
    await member.getByRole('heading', { name: 'Tracklist' }).waitFor();
    await member.getByRole('button', { name: `Play ${house.title}` }).click();
    await waitForTimeAbove(member, 0.5);
    expect(memberQueries.length).toBe(1);
  });

  it('fits a 360 px screen: the carousel, its arrows and the player bar', async () => {
    const page = await openPage(listener.token, 360);
    await page.goto(`${baseUrl}/home`);
    await page.getByRole('button', { name: 'Next mix' }).click();
    await page
      .getByRole('button', { name: /^Play / })
      .first()
      .click();
    await page.getByRole('region', { name: 'Audio player' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
