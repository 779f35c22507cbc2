import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { signedInPage } from './support/upload';
import { graphql, type Member, publishMix, signUpMember } from './support/world';

const baseUrl = inject('baseUrl');
/** Set (a folder) to photograph the section for the docs: `VERSIONS_SCREENSHOTS=../docs/screenshots`. */
const screenshots = process.env.VERSIONS_SCREENSHOTS;

let browser: Browser;
let dj: Member;
let fan: Member;

beforeAll(async () => {
  browser = await launchBrowser();
  dj = await signUpMember(baseUrl, undefined, 'versions_dj');
  fan = await signUpMember(baseUrl, undefined, 'versions_fan');
});
afterAll(async () => {
  await browser?.close();
});

const SET_TRACKLIST =
  'mutation($mixId: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $mixId, tracks: $tracks) { position } }';
const tracklist = (artists: string[]) =>
  artists.map((artist, index) => ({ title: `${artist} anthem`, creators: [artist], isManual: true, startTime: index * 6 }));

/** The owner's published mix page lists its tracklist versions, newest first; others never see the section (docs/payments.md#tracklist-versions). */
it('the owner sees each version of a published tracklist, opens one to read its entries; the page is axe clean', async () => {
  const mix = await publishMix(baseUrl, dj, 'Versions Warehouse Session', 'house');
  await graphql(baseUrl, dj.token, SET_TRACKLIST, {
    mixId: mix.id,
    tracks: tracklist(['Tomi Sato', 'Ann Lee', 'Vic Rowe', 'Cy Moreau', 'Dee Park']),
  });
  await graphql(baseUrl, dj.token, SET_TRACKLIST, {
    mixId: mix.id,
    tracks: tracklist(['Tomi Sato', 'Ann Lee', 'Vic Rowe', 'Cy Moreau', 'Dee Park', 'Zed Ortiz']),
  });

  const page = await signedInPage(browser, dj.token);
  await page.goto(`${baseUrl}/mix/${mix.id}`);
  const section = page.getByRole('region', { name: 'Tracklist versions' });
  await section.getByText('Version 3').waitFor();
  const summaries = section.locator('summary');
  expect(await summaries.allInnerTexts()).toEqual([
    expect.stringMatching(/^Version 3\s*current · .+ · 6 tracks$/),
    expect.stringMatching(/^Version 2 · .+ · 5 tracks$/),
    expect.stringMatching(/^Version 1 · .+ · 5 tracks$/),
  ]);
  // Version 1 is the tracklist the mix was published with.
  await summaries.nth(2).click();
  const first = section.locator('details').nth(2).locator('ol > li');
  expect(await first.count()).toBe(5);
  await expect.poll(() => first.nth(0).innerText()).toContain('Artist 1');
  await summaries.nth(0).click();
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page)).toEqual([]);
  if (screenshots) {
    await mkdir(screenshots, { recursive: true });
    await section.screenshot({ path: join(screenshots, 'tracklist-versions.png') });
  }

  const other = await signedInPage(browser, fan.token);
  await other.goto(`${baseUrl}/mix/${mix.id}`);
  await other.getByRole('heading', { name: 'Tracklist', exact: true }).waitFor();
  expect(await other.getByRole('region', { name: 'Tracklist versions' }).count()).toBe(0);
  await page.context().close();
  await other.context().close();
});
