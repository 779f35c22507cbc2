import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { PASSWORD, type PublishedMix, publishMix, signUpMember } from './support/world';

const baseUrl = inject('baseUrl');

let browser: Browser;
let mix: PublishedMix;
let djName: string;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

const audio = (page: Page) =>
  page.evaluate(() => {
    const element = document.querySelector('audio');
    return { paused: element?.paused ?? true, time: element?.currentTime ?? 0, src: element?.currentSrc ?? '' };
  });

// Far from the other journeys' members (the files share one server and database): within 40 km, only this DJ.
const LISBON = { latitude: 38.7223, longitude: -9.1393 };
const SINTRA = { latitude: 38.8029, longitude: -9.3817 };

beforeAll(async () => {
  browser = await launchBrowser();
  const dj = await signUpMember(baseUrl, LISBON, 'journey_dj');
  djName = dj.userName;
  mix = await publishMix(baseUrl, dj, `Journey Techno ${dj.userName}`, 'techno');
});
afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
});
afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

describe('a listener’s first visit, end to end', () => {
  it('signs up, filters, plays across pages, saves, follows, shares, and signs out', async () => {
    const page = await newPage();
    const context = page.context();
    await context.grantPermissions(['geolocation'], { origin: baseUrl });
    await context.setGeolocation(SINTRA);
    const suffix = randomBytes(4).toString('hex');

    // Sign up through every step.
    await page.goto(`${baseUrl}/signin`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('Email').fill(`journey_${suffix}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Username', { exact: true }).waitFor();
    await page.getByLabel('Username', { exact: true }).fill(`listener_${suffix}`);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`${baseUrl}/signup/location`);
    await page.getByRole('button', { name: 'Use my location' }).click();
    await page.getByText('Found you.').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`${baseUrl}/signup/user-type`);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`${baseUrl}/signup/conduct`);
    await page.getByRole('checkbox', { name: 'I agree to the mixcrate code of conduct' }).check();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForURL(`${baseUrl}/home`);

    // Filter by genre and distance: the DJ is about 23 km away.
    await page.getByRole('button', { name: /^All · 20,000 km · / }).click();
    await page.locator('label', { hasText: /^Techno$/ }).click();
    await page.getByLabel(/^Distance/).fill('40');
    await page.getByRole('button', { name: /^Techno · 40 km · 1\/1$/ }).waitFor();
    await page.getByRole('heading', { name: mix.title }).waitFor();

    // Play it, then browse: the same audio keeps playing.
    await page.getByRole('button', { name: `Play ${mix.title}` }).click();
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.5);
    const playing = await audio(page);
    await page.getByRole('link', { name: mix.title }).first().click();
    await page.waitForURL(`${baseUrl}/mix/${mix.id}`);
    await page.getByRole('heading', { name: 'Tracklist' }).waitFor();
    await page.getByRole('button', { name: `Save ${mix.title}` }).click();
    await page.getByRole('button', { name: `Remove ${mix.title} from saved mixes` }).waitFor();

    await page.locator('article').getByRole('link', { name: djName, exact: true }).click();
    await page.waitForURL(`${baseUrl}/profile/${djName}`);
    const profile = page.getByRole('main', { name: djName });
    await profile.getByRole('button', { name: new RegExp(`^Follow ${djName}`) }).click();
    await profile.getByRole('button', { name: new RegExp(`^Following ${djName}`) }).waitFor();
    const later = await audio(page);
    expect(later.paused).toBe(false);
    expect(later.src).toBe(playing.src);
    expect(later.time).toBeGreaterThan(playing.time);

    // Both show up in the member's lists.
    await page.goto(`${baseUrl}/saved-mix`);
    await page.getByRole('main').getByRole('link', { name: mix.title }).waitFor();
    await page.goto(`${baseUrl}/follows`);
    await page.getByRole('tab', { name: /Following/ }).waitFor();
    await page.getByRole('link', { name: djName, exact: true }).first().waitFor();

    // The share link works for someone signed out.
    const stranger = await newPage();
    await stranger.goto(`${baseUrl}/shared-mix/${mix.id}`);
    await stranger.getByText('Shared by:').waitFor();
    await stranger.getByRole('heading', { name: mix.title }).waitFor();

    // Sign out from the menu: back on the landing page with nothing stored, and the session ended on the server.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${baseUrl}/`);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const afterwards = await fetch(`${baseUrl}/api/user/logged-in-user`, { headers: { 'x-auth-token': token ?? '' } });
    expect(afterwards.status).toBe(401);
  });
});
