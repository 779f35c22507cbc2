import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { solidImage } from '../../api/test/support/images';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { type Member, type PublishedMix, publishMix, signUpMember } from './support/world';

const baseUrl = inject('baseUrl');
const BERLIN = { latitude: 52.52, longitude: 13.405 };
const MUNICH = { latitude: 48.137, longitude: 11.575 };

let browser: Browser;
let ana: Member;
let ben: Member;
let benName: string;
let benMix: PublishedMix;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

async function openPage(token?: string, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  contexts.push(context);
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  if (token) await context.addInitScript((value) => localStorage.setItem('token', value), token);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

/** PATCH /api/user/update-user without an image (the fields alone travel as JSON) (docs/profiles.md#calls). */
async function updateProfile(member: Member, fields: { display_name: string; user_type: string; bio: string }) {
  const response = await fetch(`${baseUrl}/api/user/update-user`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'x-auth-token': member.token },
    body: JSON.stringify(fields),
  });
  if (!response.ok) throw new Error(`update-user answered ${response.status}: ${await response.text()}`);
}

beforeAll(async () => {
  browser = await launchBrowser();
  ana = await signUpMember(baseUrl, BERLIN, 'ana');
  ben = await signUpMember(baseUrl, MUNICH, 'ben');
  benName = `Ben ${ben.userName.slice(-4)}`;
  await updateProfile(ben, { display_name: benName, user_type: 'dj-creator', bio: 'Producer from Munich.' });
  benMix = await publishMix(baseUrl, ben, `Isar Sunrise ${ben.userName}`, 'deep_house');
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  expect(pageErrors.splice(0)).toEqual([]);
});

describe('profiles and follows', () => {
  it('follows a member from their profile, finds them in /follows with the distance, and by search', async () => {
    const page = await openPage(ana.token);
    await page.goto(`${baseUrl}/profile/${ben.userName}`);
    await page.getByRole('heading', { level: 1, name: benName }).waitFor();
    await page.getByText(`@${ben.userName}`).waitFor();
    await page.getByText('DJ Creator', { exact: true }).waitFor();
    // Berlin to Munich is about 505 km; others see the distance between the two members' ~2 km cells: 504 km.
    await page.getByText('504 km away').waitFor();
    expect(await page.getByRole('button', { name: 'Message' }).isDisabled()).toBe(true);
    await page.getByRole('link', { name: benMix.title }).waitFor();
    expect(await page.getByRole('link', { name: benMix.title }).getAttribute('href')).toBe(`/mix/${benMix.id}`);

    const follow = page.getByRole('button', { name: `Follow ${benName}` });
    await follow.click();
    const following = page.getByRole('button', { name: `Following ${benName}` }).first();
    await following.waitFor();
    expect(await following.textContent()).toBe('Following');
    await page.getByText('1 follower').waitFor();

    // The wide screen's sidebar shows the viewer's own Following list, refreshed by the follow.
    const sidebar = page.getByRole('region', { name: 'Your follows' });
    await sidebar.getByRole('link', { name: benName }).waitFor();

    await page.goto(`${baseUrl}/follows`);
    const followingTab = page.getByRole('tab', { name: /^Following/ });
    expect(await followingTab.getAttribute('aria-selected')).toBe('true');
    await followingTab.getByText('1', { exact: true }).waitFor();
    const row = page.getByRole('tabpanel').getByRole('listitem').filter({ hasText: benName });
    await row.getByText('DJ / Creator · 504 km').waitFor();
    await row.getByRole('button', { name: 'Following' }).waitFor();

    await followingTab.focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: /^Followers/ }).getAttribute('aria-selected')).toBe('true');
    await page.getByText('Nobody follows you yet.').waitFor();

    const search = page.getByPlaceholder('Display name');
    await search.fill(benName);
    const result = page.getByRole('option', { name: new RegExp(benName) });
    await result.waitFor();
    await search.press('ArrowDown');
    await search.press('Enter');
    await page.waitForURL(`${baseUrl}/profile/${ben.userName}`);
    await page.getByRole('heading', { level: 1, name: benName }).waitFor();

    await page.goto(`${baseUrl}/follows`);
    await search.fill('no member is called this');
    await page.getByText('No results').waitFor();
    await page.getByRole('heading', { name: 'Follows' }).click();
    expect(await search.inputValue()).toBe('');
    expect(await page.getByText('No results').count()).toBe(0);
  });

  it('edits the own profile: display name, user type, bio and a cropped avatar', async () => {
    const page = await openPage(ana.token);
    await page.goto(`${baseUrl}/profile/${ana.userName}`);
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await page.getByRole('heading', { name: 'Edit profile' }).waitFor();

    const chooser = page.getByLabel('Choose image');
    await chooser.setInputFiles({ name: 'not an image.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByText('Wrong format! Try .jpg .png or .gif').waitFor();

    await chooser.setInputFiles({ name: 'my avatar (1).png', mimeType: 'image/png', buffer: await solidImage('png', 640, 480) });
    const crop = page.getByRole('region', { name: 'Crop your image' });
    await crop.waitFor();
    await crop.getByLabel('Zoom').fill('1.5');
    await crop.getByRole('button', { name: 'Done' }).click();
    await crop.waitFor({ state: 'detached' });
    expect(await page.getByAltText('Your profile').getAttribute('src')).toMatch(/^blob:/);

    await page.getByLabel('Display name', { exact: true }).fill('Ana from Berlin');
    await page.getByLabel('User type').selectOption('promoter');
    const bio = page.getByLabel('Bio');
    await bio.fill('x'.repeat(181));
    await page.getByText('181 / 180').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await bio.fill('Sunday sessions by the canal.');
    await page.getByText('29 / 180').waitFor();

    const saved = page.waitForResponse((response) => response.url().endsWith('/api/user/update-user'));
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);

    await page.getByRole('heading', { level: 1, name: 'Ana from Berlin' }).waitFor();
    await page.getByText('Promoter', { exact: true }).waitFor();
    await page.getByText('Sunday sessions by the canal.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Edit profile');
    // The avatar is the uploaded square, served by the API and loaded by the browser.
    const avatar = page.locator('main img').first();
    await avatar.waitFor();
    expect(await avatar.getAttribute('src')).not.toMatch(/^blob:/);
    await page.waitForFunction(() => {
      const image = document.querySelector('main img') as HTMLImageElement | null;
      return Boolean(image?.complete && image.naturalWidth === 400 && image.naturalHeight === 400);
    });
  });

  it('shows a shared profile signed out, without Follow or Message, its mixes linking to shared mix pages', async () => {
    const page = await openPage();
    await page.goto(`${baseUrl}/shared-profile/${ben.userName}`);
    await page.getByRole('heading', { level: 1, name: benName }).waitFor();
    await page.getByText('Producer from Munich.').waitFor();
    await page.getByRole('link', { name: 'Login' }).waitFor();
    const mix = page.getByRole('link', { name: benMix.title });
    await mix.waitFor();
    expect(await mix.getAttribute('href')).toBe(`/shared-mix/${benMix.id}`);
    expect(await page.getByRole('button', { name: /Follow/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Message' }).count()).toBe(0);
    expect(await page.getByText(/km away/).count()).toBe(0);
  });

  it('fits a 360 px screen and says when no member has the name', async () => {
    const page = await openPage(ana.token, 360);
    await page.goto(`${baseUrl}/profile/${ben.userName}`);
    await page
      .getByRole('button', { name: /^Follow/ })
      .first()
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await page.goto(`${baseUrl}/profile/nobody_${ben.userName}`);
    await page.getByRole('heading', { name: 'No member found' }).waitFor();
    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.waitForURL(`${baseUrl}/home`);
  });
});
