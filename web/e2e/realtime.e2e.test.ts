import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { subscribeSent } from './support/graphql-traffic';
import { type Member, type PublishedMix, publishMix, signUpMember } from './support/world';

const baseUrl = inject('baseUrl');
const BERLIN = { latitude: 52.52, longitude: 13.405 };
const POTSDAM = { latitude: 52.39, longitude: 13.065 };

let browser: Browser;
let dj: Member;
let fan: Member;
let mix: PublishedMix;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

async function openPage(token?: string, width = 1280): Promise<Page> {
  // The CSP refuses inline scripts, axe-core's included: the journey lets the page run it.
  const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
  contexts.push(context);
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  if (token) await context.addInitScript((value) => localStorage.setItem('token', value), token);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

beforeAll(async () => {
  browser = await launchBrowser();
  dj = await signUpMember(baseUrl, BERLIN, 'live');
  fan = await signUpMember(baseUrl, POTSDAM, 'fan');
  mix = await publishMix(baseUrl, dj, `Live at the Bunker ${dj.userName}`, 'techno');
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  expect(pageErrors.splice(0)).toEqual([]);
});

describe('realtime', () => {
  it('shows who is listening now, live, on the mix page and the shared page', async () => {
    const owner = await openPage(dj.token);
    await owner.goto(`${baseUrl}/mix/${mix.id}`);
    await owner.getByText('0 listening now').waitFor();
    const visitor = await openPage(undefined, 390);
    await visitor.goto(`${baseUrl}/shared-mix/${mix.id}`);
    await visitor.getByText('0 listening now').waitFor();

    const listener = await openPage(fan.token);
    await listener.goto(`${baseUrl}/mix/${mix.id}`);
    await listener.getByRole('button', { name: `Play ${mix.title}` }).click();
    await owner.getByText('1 listening now').waitFor();
    await visitor.getByText('1 listening now').waitFor();
    expect(await seriousViolations(owner)).toEqual([]);
    expect(await seriousViolations(visitor)).toEqual([]);

    await listener.getByRole('button', { name: `Pause ${mix.title}` }).click();
    await owner.getByText('0 listening now').waitFor();
    await visitor.getByText('0 listening now').waitFor();
  });

  it('rings the bell when someone follows, and lists it on the notifications page', async () => {
    for (const width of [1280, 390]) {
      const star = await signUpMember(baseUrl, BERLIN, 'star');
      const page = await openPage(star.token, width);
      const subscribed = subscribeSent(page, 'followEvents');
      await page.goto(`${baseUrl}/home`);
      const bell = page.getByRole('link', { name: /^Notifications/ });
      await bell.waitFor();
      expect(await bell.getAttribute('aria-label')).toBe('Notifications');
      // Follow events send nothing on subscribing: the follow waits until the page has asked for them.
      await subscribed;

      const follow = await fetch(`${baseUrl}/api/user/follow/${star.id}`, { headers: { 'x-auth-token': fan.token } });
      expect(follow.status).toBe(200);
      await page.getByRole('link', { name: 'Notifications, 1 unread' }).waitFor();

      await page.getByRole('link', { name: 'Notifications, 1 unread' }).click();
      await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      const list = page.getByRole('list', { name: 'Notifications' });
      await list.getByText('followed you').waitFor();
      await list
        .getByRole('link', { name: /Fan|fan_/ })
        .first()
        .waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // A second follow event while the list is open arrives without a reload.
      await fetch(`${baseUrl}/api/user/follow/${star.id}`, { headers: { 'x-auth-token': fan.token } });
      await list.getByText('unfollowed you').waitFor();
      await page.getByRole('link', { name: 'Notifications, 2 unread' }).waitFor();

      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await page.getByText('All read.').waitFor();
      await page.getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    }
  });
});
