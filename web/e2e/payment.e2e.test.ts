import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { graphql, type Member, signUpMember, uploadDraft } from './support/world';

const baseUrl = inject('baseUrl');

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  // The test-mode pages run no script; axe is injected for the accessibility check only.
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

async function redirectFor(member: Member, path: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': member.token },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { redirect: string }).redirect;
}

const statusOf = async (member: Member, mixId: string) =>
  (
    await graphql<{ mix: { status: string; expiringIn: number | null } }>(
      baseUrl,
      member.token,
      'query($id: ID!) { mix(id: $id) { status expiringIn } }',
      { id: mixId },
    )
  ).mix;

describe('the test-mode checkout (no STRIPE_SECRET_KEY)', () => {
  it('from the session to a published mix: the page says test mode, what is bought and its price; Pay (test mode) returns to the success page', async () => {
    const dj = await signUpMember(baseUrl);
    const draft = await uploadDraft(baseUrl, dj, `Paid for ${dj.userName}`, 'techno');
    expect((await statusOf(dj, draft.id)).status).toBe('DRAFT');

    const redirect = await redirectFor(dj, '/api/payment/create-single-purchase-session', { mix_id: draft.id });
    await page.goto(redirect);
    await page.getByRole('heading', { name: 'Checkout (test mode)' }).waitFor();
    await page.getByText('Test mode: no card is charged').waitFor();
    await page.getByText(draft.title).waitFor();
    await page.getByText('$4.00').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Keyboard: the Pay button takes focus with Tab and is pressed with Enter.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pay (test mode)');
    // Where "Pay" sends the browser is the server's 303, read from the answer itself: this browser never signed in, so
    // the success page it lands on moves on to the landing page, sooner or later depending on the machine's load.
    const [paid] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/pay') && response.status() === 303),
      page.keyboard.press('Enter'),
    ]);
    const landed = new URL(paid.headers().location ?? '', baseUrl);
    expect(landed.pathname).toBe('/upload/payment/success-purchase');
    expect(landed.searchParams.get('mix_id')).toBe(draft.id);
    expect(landed.searchParams.get('session_id')).toMatch(/^cs_test_mixcrate_/);
    expect(await statusOf(dj, draft.id)).toEqual({ status: 'PUBLISHED', expiringIn: expect.any(Number) });
    expect((await statusOf(dj, draft.id)).expiringIn).toBeGreaterThanOrEqual(365);
  });

  it('Cancel returns to the canceled page and the mix stays a draft', async () => {
    const dj = await signUpMember(baseUrl);
    const draft = await uploadDraft(baseUrl, dj, `Not paid ${dj.userName}`, 'house');
    await page.goto(await redirectFor(dj, '/api/payment/create-single-purchase-session', { mix_id: draft.id }));
    await Promise.all([page.waitForURL(/\/upload\/payment\/canceled-purchase\?/), page.getByRole('button', { name: 'Cancel' }).click()]);
    expect(new URL(page.url()).searchParams.get('mix_id')).toBe(draft.id);
    expect((await statusOf(dj, draft.id)).status).toBe('DRAFT');
  });

  it('a subscription, then the test-mode billing page shows it and cancels it', async () => {
    const dj = await signUpMember(baseUrl);
    const draft = await uploadDraft(baseUrl, dj, `Subscribed ${dj.userName}`, 'house');
    await page.goto(await redirectFor(dj, '/api/payment/create-subscription-session', { mix_id: draft.id }));
    await page.getByText('a month').waitFor();
    await Promise.all([
      page.waitForURL(/\/upload\/payment\/success-subscription\?/),
      page.getByRole('button', { name: 'Pay (test mode)' }).click(),
    ]);
    expect(await statusOf(dj, draft.id)).toEqual({ status: 'PUBLISHED', expiringIn: null });

    await page.goto(await redirectFor(dj, '/api/payment/configure-portal-session', {}));
    await page.getByRole('heading', { name: 'Billing (test mode)' }).waitFor();
    await page.getByText('Renews').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await Promise.all([page.waitForURL(/\/test-mode\/billing\//), page.getByRole('button', { name: 'Cancel subscription' }).click()]);
    await page.getByText('Ends', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Return to mixcrate' }).waitFor();
  });
});
