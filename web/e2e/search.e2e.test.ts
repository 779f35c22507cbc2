import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { graphql, type Member, type PublishedMix, signUpMember, uploadDraft } from './support/world';

/**
 * docs/search.md: the header's search box forgives a misspelt DJ name and a misspelt track title, and leads to the
 * DJ's profile and to a mix that plays the track; the box and the results page pass axe-core at 390 and 1280 px.
 * Set SEARCH_SCREENSHOTS (a folder) to keep screenshots of both.
 */

const baseUrl = inject('baseUrl');
const screenshots = process.env.SEARCH_SCREENSHOTS;
const DJ_NAME = 'Marisol Quintanilla';
const TRACK = { title: 'Velvet Thunderstorm', creators: ['Okonkwo Brightwater'] };

let browser: Browser;
let dj: Member;
let listener: Member;
let mix: PublishedMix;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

async function openPage(token: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  contexts.push(context);
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  await context.addInitScript((value) => localStorage.setItem('token', value), token);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

const box = (page: Page) => page.getByRole('combobox', { name: 'Search mixes, members and tracks' });

/** Arrow down through the suggestions until the active one holds `text`; then Enter opens it. */
async function pickSuggestion(page: Page, text: string) {
  await page.getByRole('option', { name: new RegExp(text) }).waitFor();
  for (let step = 0; step < 8; step += 1) {
    await page.keyboard.press('ArrowDown');
    const active = await box(page).getAttribute('aria-activedescendant');
    const label = active ? await page.locator(`[id="${active}"]`).innerText() : '';
    if (label.includes(text)) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`no suggestion holds ${text}`);
}

async function photograph(page: Page, name: string, width: number) {
  expect(await seriousViolations(page)).toEqual([]);
  if (!screenshots) return;
  await mkdir(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, `${name}-${width}.png`) });
}

beforeAll(async () => {
  browser = await launchBrowser();
  dj = await signUpMember(baseUrl, { latitude: 48.137, longitude: 11.575 }, 'marisol');
  listener = await signUpMember(baseUrl, { latitude: 52.52, longitude: 13.405 }, 'listener');
  await graphql(baseUrl, dj.token, 'mutation ($name: String!) { updateProfile(input: { displayName: $name }) { id } }', { name: DJ_NAME });
  mix = await uploadDraft(baseUrl, dj, 'Harbour Lights at Dawn', 'deep_house');
  const tracks = [TRACK, ...[1, 2, 3, 4].map((n) => ({ title: `Opening Theme ${n}`, creators: ['Lena Varga'] }))].map((track) => ({
    ...track,
    isManual: true,
  }));
  await graphql(
    baseUrl,
    dj.token,
    'mutation($mixId: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $mixId, tracks: $tracks) { position } }',
    { mixId: mix.id, tracks },
  );
  await graphql(baseUrl, dj.token, 'mutation($mixId: ID!) { publishMix(mixId: $mixId, code: "free-mix") { id } }', { mixId: mix.id });
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  expect(pageErrors.splice(0)).toEqual([]);
});

describe('search from the header', () => {
  it.each([1280, 390])('a misspelt DJ name leads to the DJ’s profile (%i px)', async (width) => {
    const page = await openPage(listener.token, width);
    await page.goto(`${baseUrl}/follows`);
    await box(page).waitFor();
    await page.keyboard.press('/');
    expect(await box(page).evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type('marisol quintanila');
    await page.getByRole('option', { name: /@marisol_/ }).waitFor();
    await photograph(page, 'search-suggestions', width);
    await pickSuggestion(page, `@${dj.userName}`);
    await page.waitForURL(`${baseUrl}/profile/${dj.userName}`);
    await page.getByRole('heading', { name: DJ_NAME }).first().waitFor();
  });

  it.each([1280, 390])('a misspelt track title leads to a mix that plays it (%i px)', async (width) => {
    const page = await openPage(listener.token, width);
    await page.goto(`${baseUrl}/follows`);
    await box(page).click();
    await page.keyboard.type('velvet thunderstrom');
    await page.getByRole('option', { name: new RegExp(TRACK.title) }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?q=velvet/);
    const results = page.getByRole('list', { name: 'Results' });
    await results.getByRole('link', { name: TRACK.title }).waitFor();
    await photograph(page, 'search-results', width);
    await page.getByRole('link', { name: 'Mixes', exact: true }).click();
    await results.getByRole('link', { name: mix.title }).click();
    await page.waitForURL(`${baseUrl}/mix/${mix.id}`);
    await page.getByRole('heading', { name: mix.title }).first().waitFor();
  });

  it('Escape closes the suggestions; a search that finds nothing says so', async () => {
    const page = await openPage(listener.token, 1280);
    await page.goto(`${baseUrl}/search?q=qqxxzzvv`);
    await page.getByText('Nothing matches “qqxxzzvv”').waitFor();
    await box(page).click();
    await page.keyboard.type(' zz');
    await page.getByRole('status').filter({ hasText: 'No matches' }).waitFor();
    expect(await box(page).getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await box(page).getAttribute('aria-expanded')).toBe('false');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
