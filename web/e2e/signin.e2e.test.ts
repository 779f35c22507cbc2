import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { PASSWORD, publishMix, signUpMember as signUpOver } from './support/world';

const baseUrl = inject('baseUrl');
const signUpMember = () => signUpOver(baseUrl);

let browser: Browser;
let context: BrowserContext;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  page = await context.newPage();
  pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
});
afterEach(async () => {
  await context?.close();
  expect(pageErrors).toEqual([]);
});

async function fillSignIn(email: string, password: string, confirmation: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(confirmation);
}

describe('signing in', () => {
  it('validates, signs in, and lands on /home showing the member', async () => {
    const member = await signUpMember();
    await page.goto(`${baseUrl}/signin`);
    await page.getByRole('heading', { name: "Let's login" }).waitFor();

    // Keyboard first: the logo, then the email field.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');

    await fillSignIn(member.email, PASSWORD, 'Mixcrate2!');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Passwords do not match').waitFor();
    expect(await page.getByLabel('Confirm password').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Confirm password').fill(PASSWORD);
    await expect(page.getByText('Passwords do not match').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Login' }).click();

    const next = page.getByRole('button', { name: 'Next' });
    await next.waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

    const clicked = Date.now();
    await next.click();
    await page.waitForURL(`${baseUrl}/home`);
    expect(Date.now() - clicked).toBeGreaterThanOrEqual(700);
    const profile = page.getByRole('link', { name: 'Your profile' });
    await profile.waitFor();
    expect(await profile.getAttribute('href')).toBe(`/profile/${member.userName}`);
  });

  it('alerts on a wrong password and stores no token', async () => {
    const member = await signUpMember();
    await page.goto(`${baseUrl}/signin`);
    await fillSignIn(member.email, 'Wrongpass1!', 'Wrongpass1!');
    await page.getByRole('button', { name: 'Login' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Please check details and try again.');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});

describe('routes', () => {
  it('shows the not-found page for an unknown route, linking home', async () => {
    const response = await page.goto(`${baseUrl}/no/such/page`);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Oooops... That page cannot be found' }).waitFor();
    await page.getByRole('link', { name: /homepage/i }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.getByRole('link', { name: 'Login' }).waitFor();
  });

  it('the landing page clears the stored login and offers Login', async () => {
    await page.goto(`${baseUrl}/`);
    await page.evaluate(() => {
      localStorage.setItem('token', 'stale');
      localStorage.setItem('user_name', 'someone');
    });
    await page.reload();
    await page.getByRole('link', { name: 'Login' }).waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user_name')])).toEqual([null, null]);
    await page.getByRole('link', { name: 'Login' }).click();
    await page.waitForURL(`${baseUrl}/signin`);
  });

  it('reloads once when a screen chunk is gone (a deploy replaced it) and then shows the screen', async () => {
    let requests = 0;
    await page.route(/\/assets\/NotFoundPage-[^/]*\.js$/, (route) => {
      requests += 1;
      return requests === 1 ? route.abort() : route.continue();
    });
    await page.goto(`${baseUrl}/gone-after-deploy`);
    await page.getByRole('heading', { name: 'Oooops... That page cannot be found' }).waitFor();
    expect(requests).toBe(2);
  });

  it('is the production build: no React development runtime among the scripts the pages load', async () => {
    const html = await (await fetch(`${baseUrl}/`)).text();
    const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((script) => script?.includes('dev-runtime'))).toEqual([]);
  });

  it('a shared mix link paints first, then asks for the app and the chunks of its screen (named by the build manifest)', async () => {
    const dj = await signUpMember();
    const mix = await publishMix(baseUrl, dj, `Preloaded ${dj.userName}`, 'house');
    const html = await (await fetch(`${baseUrl}/shared-mix/${mix.id}`)).text();
    expect(html).toMatch(/"\/assets\/SharedMixPage-[^"]+\.js"/);
    expect(html).toMatch(/"\/assets\/GraphQLBoundary-[^"]+\.js"/);

    await page.goto(`${baseUrl}/shared-mix/${mix.id}`);
    await page.getByRole('button', { name: `Play ${mix.title}` }).waitFor();
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/SharedMixPage-')));
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.POSITIVE_INFINITY,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => entry.startTime),
    }));
    expect(timing.scripts.length).toBeGreaterThan(3);
    expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paint);
  });
});
