import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { admin, publishedMixOf } from './support/creator-world';
import { REPO_DIR } from './support/web-build';
import { graphql, type Member, signUpMember } from './support/world';

/**
 * Issue 28's journey (docs/creators.md): a member claims a creator from a track page, a moderator approves it in
 * /moderation, a subscriber listens to a mix that plays that creator's track, the period settles, the creator sees the
 * amount on /earnings, connects the test-mode payout account, and the payout run pays it exactly once (run twice).
 */

const baseUrl = inject('baseUrl');
const databaseUrl = inject('databaseUrl');
const run = promisify(execFile);
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function signedIn(member: Member): Promise<Page> {
  // axe-core runs in the page: the journey lets it (the CSP refuses inline scripts).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  await context.addInitScript((value) => localStorage.setItem('token', value), member.token);
  return context.newPage();
}

async function post(path: string, member: Member | null, body: Record<string, unknown> = {}) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/json', ...(member ? { 'x-auth-token': member.token } : {}) },
    body: JSON.stringify(body),
  });
}

describe('creators get paid', () => {
  it('claim, approval, a subscriber’s listen, settlement, the amount, a test-mode payout account, one payout', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const creatorName = `Tomi Sato ${suffix}`;
    const [dj, creator, moderator, subscriber, operator] = [
      await signUpMember(baseUrl, undefined, 'cr_dj'),
      await signUpMember(baseUrl, undefined, 'cr_me'),
      await signUpMember(baseUrl, undefined, 'cr_mod'),
      await signUpMember(baseUrl, undefined, 'cr_sub'),
      await signUpMember(baseUrl, undefined, 'cr_op'),
    ];
    await admin(databaseUrl, 'grant', 'moderator', moderator.email);
    await admin(databaseUrl, 'grant', 'operator', operator.email);

    // A published mix whose five tracks are all the creator's.
    const { mix: draft, firstTrackId: trackId } = await publishedMixOf(baseUrl, dj, {
      title: `Sato set ${suffix}`,
      creatorName,
      trackTitle: `Harbour ${suffix}`,
    });
    expect(trackId).not.toBe('');

    // 1. The member claims the creator from the track page.
    const claimant = await signedIn(creator);
    await claimant.goto(`${baseUrl}/track/${trackId}`);
    await claimant.getByText('Is this you? Claim a name on this track').click();
    await claimant.getByLabel('Evidence links').fill('https://tomisato.example/about');
    await claimant.getByLabel('Note for the moderator').fill('My label page says so');
    expect(await seriousViolations(claimant)).toEqual([]);
    await claimant.screenshot({ path: join(REPO_DIR, 'docs/screenshots/claim.png') });
    await claimant.getByRole('button', { name: 'Send claim' }).click();
    await claimant
      .getByRole('status')
      .getByText(/A moderator will look at your claim/)
      .waitFor();

    // 2. The moderator approves it in /moderation.
    const mod = await signedIn(moderator);
    await mod.goto(`${baseUrl}/moderation`);
    const item = mod.getByRole('listitem').filter({ hasText: creatorName });
    await item.getByRole('link', { name: 'https://tomisato.example/about' }).waitFor();
    expect(await seriousViolations(mod)).toEqual([]);
    await mod.screenshot({ path: join(REPO_DIR, 'docs/screenshots/moderation.png') });
    await item.getByLabel(/^Reason/).fill('Label page matches');
    await item.getByRole('button', { name: 'Approve' }).click();
    await item.waitFor({ state: 'detached' });

    // The track's credit now links to the creator's profile, which shows the badge.
    await claimant.goto(`${baseUrl}/track/${trackId}`);
    await claimant.getByRole('link', { name: creatorName }).click();
    await claimant.waitForURL(`${baseUrl}/profile/${creator.userName}`);
    await claimant.getByText(`Verified creator: ${creatorName}`).waitFor();
    expect(await seriousViolations(claimant)).toEqual([]);
    await claimant.screenshot({ path: join(REPO_DIR, 'docs/screenshots/profile-verified.png') });

    // 3. A subscriber (test-mode subscription) listens to the mix for more than 30 s.
    const session = await post('/api/payment/create-subscription-session', subscriber);
    const checkout = new URL(((await session.json()) as { redirect: string }).redirect).pathname;
    expect((await post(`${checkout}/pay`, null)).status).toBe(303);
    const start = Date.now() + 1000;
    const end = start + 31_000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, end + 500 - Date.now())));
    for (const [path, body] of [
      ['add-new-listen', { start: new Date(start).toISOString() }],
      ['pause', { end: new Date(end).toISOString() }],
    ] as const)
      expect((await post(`/api/mix/${path}/${draft.id}`, subscriber, body)).status).toBe(200);

    // 4. The period settles.
    await run(process.execPath, ['--import', 'tsx', '../web/e2e/support/settle-rewards.ts', databaseUrl ?? ''], {
      cwd: join(REPO_DIR, 'api'),
    });

    // 5. The creator sees the amount, and connects the test-mode payout account.
    const { creatorEarnings } = await graphql<{ creatorEarnings: { totalCents: number } }>(
      baseUrl,
      creator.token,
      '{ creatorEarnings { totalCents } }',
    );
    expect(creatorEarnings.totalCents).toBeGreaterThan(0);
    await claimant.goto(`${baseUrl}/earnings`);
    const amount = `$${(creatorEarnings.totalCents / 100).toFixed(2)}`;
    await claimant.getByTestId('earned-total').getByText(amount).waitFor();
    await claimant.getByRole('row', { name: new RegExp(creatorName) }).waitFor();
    // Per track: the five tracks, which add up to the month.
    const byTrack = claimant.getByRole('region', { name: new RegExp(`^${creatorName}, .* by track$`) });
    await byTrack.getByRole('link', { name: `Harbour ${suffix} 1` }).waitFor();
    const trackCents = (await byTrack.locator('tbody tr td:nth-of-type(3)').allTextContents()).map((text) =>
      Math.round(Number(text.replace('$', '')) * 100),
    );
    expect(trackCents).toHaveLength(5);
    expect(trackCents.reduce((sum, cents) => sum + cents, 0)).toBe(creatorEarnings.totalCents);
    await claimant.getByRole('button', { name: 'Connect payout account' }).click();
    await claimant.getByTestId('payout-account').getByText('Test mode. Connected: payouts reach this account.').waitFor();
    expect(await seriousViolations(claimant)).toEqual([]);

    // 6. The payout run, twice: one transfer.
    for (let attempt = 0; attempt < 2; attempt++) expect((await post('/api/payment/payouts/run', operator)).status).toBe(200);
    const after = await graphql<{
      creatorEarnings: { paidCents: number; balanceCents: number; payouts: { status: string; amountCents: number }[] };
    }>(baseUrl, creator.token, '{ creatorEarnings { paidCents balanceCents payouts { status amountCents } } }');
    expect(after.creatorEarnings.payouts).toEqual([{ status: 'paid', amountCents: creatorEarnings.totalCents }]);
    expect(after.creatorEarnings).toMatchObject({ paidCents: creatorEarnings.totalCents, balanceCents: 0 });
    await claimant.reload();
    await claimant.getByRole('list', { name: 'Payouts' }).getByText(/paid/).waitFor();
    await claimant.screenshot({ path: join(REPO_DIR, 'docs/screenshots/earnings.png'), fullPage: true });

    // The public page: aggregates only.
    const visitor = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await visitor.goto(`${baseUrl}/creator-earnings`);
    await visitor.getByRole('heading', { name: "Where subscribers' money goes" }).waitFor();
    await visitor.getByRole('region', { name: 'Creator money by month' }).waitFor();
    expect(await seriousViolations(visitor)).toEqual([]);
    expect(await visitor.content()).not.toContain(creatorName);
    await visitor.screenshot({ path: join(REPO_DIR, 'docs/screenshots/creator-earnings.png') });
    await visitor.close();
  }, 180_000);
});
