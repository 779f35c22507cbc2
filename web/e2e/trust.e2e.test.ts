import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { admin, publishedMixOf } from './support/creator-world';
import { REPO_DIR } from './support/web-build';
import { graphql, type Member, publishMix, signUpMember } from './support/world';

/**
 * Issue 29's journey (docs/moderation.md): a member reports a mix; a verified rights holder files a notice on another mix
 * that plays their track, which vanishes from the feed, search, the track page, the profile and the public REST API at
 * once and answers 451 on its share link; the owner counter-notices; a moderator restores it and everything is back.
 */

const baseUrl = inject('baseUrl');
const databaseUrl = inject('databaseUrl');
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

const shot = (page: Page, name: string) => page.screenshot({ path: join(REPO_DIR, `docs/screenshots/${name}.png`), fullPage: true });

/** A REST answer's status and body text, as a member or nobody. */
async function rest(path: string, member: Member | null, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(member ? { 'x-auth-token': member.token } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, text: await response.text() };
}

/** Whether every public surface shows the mix, each asked through the public API, as a member who is not its owner. */
async function surfaces(viewer: Member, mix: { id: string; title: string }, owner: Member, trackId: string) {
  const [feed, search, track, profile, single, share] = await Promise.all([
    rest('/api/mix/get-mixes-by-genre-and-distance', viewer, {
      method: 'POST',
      body: { genre: 'house', search_radius: 50, from_point: { latitude: 52.52, longitude: 13.405 }, page: 0, limit: 50 },
    }),
    rest(`/api/search?q=${encodeURIComponent(mix.title)}&type=mix`, viewer),
    rest(`/api/track/${trackId}/mixes/0`, viewer),
    rest(`/api/mix/by-user/${owner.userName}/0`, viewer),
    rest(`/api/mix/public/${mix.id}`, null),
    fetch(`${baseUrl}/shared-mix/${mix.id}`).then((response) => response.status),
  ]);
  return {
    feed: feed.text.includes(mix.id),
    search: search.text.includes(mix.id),
    track: track.text.includes(mix.id),
    profile: profile.text.includes(mix.id),
    publicApi: single.status,
    shareLink: share,
  };
}

/** Waits until the search index has caught up with a change (docs/search.md#freshness): moments, or the 5-second sweep. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, seconds = 15): Promise<T> {
  const until = Date.now() + seconds * 1000;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

describe('reports, takedowns and trust', () => {
  it('a report; a notice hides a mix everywhere (451 on its link); the counter-notice; a moderator restores it', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const creatorName = `Lena Holt ${suffix}`;
    const [dj, other, reporter, holder, moderator] = [
      await signUpMember(baseUrl, undefined, 'tr_dj'),
      await signUpMember(baseUrl, undefined, 'tr_other'),
      await signUpMember(baseUrl, undefined, 'tr_rep'),
      await signUpMember(baseUrl, undefined, 'tr_rh'),
      await signUpMember(baseUrl, undefined, 'tr_mod'),
    ];
    await admin(databaseUrl, 'grant', 'moderator', moderator.email);

    // The mix the notice is about: its five tracks are the rights holder's.
    const { mix: noticed, firstTrackId: trackId } = await publishedMixOf(baseUrl, dj, {
      title: `Holt tapes ${suffix}`,
      creatorName,
      trackTitle: `Tideline ${suffix}`,
    });
    const reported = await publishMix(baseUrl, other, `Loud loops ${suffix}`, 'techno');

    // The rights holder is verified for the creator: a claim a moderator approves (docs/creators.md#claims).
    await graphql(baseUrl, holder.token, 'mutation($input: ClaimCreatorInput!) { claimCreator(input: $input) { id } }', {
      input: { subject: 'CREATOR', name: creatorName, trackId, evidence: ['https://lenaholt.example'], note: 'My page' },
    });
    const { moderationQueue } = await graphql<{ moderationQueue: { items: { id: string; summary: string }[] } }>(
      baseUrl,
      moderator.token,
      '{ moderationQueue(status: OPEN, first: 100) { items { id summary } } }',
    );
    const claim = moderationQueue.items.find((item) => item.summary.includes(creatorName));
    await graphql(baseUrl, moderator.token, 'mutation($input: DecideModerationInput!) { decideModerationItem(input: $input) { id } }', {
      input: { itemId: claim?.id, decision: 'APPROVE', reason: 'Page checks out' },
    });

    const visible = { feed: true, search: true, track: true, profile: true, publicApi: 200, shareLink: 200 };
    expect(
      await eventually(
        () => surfaces(reporter, noticed, dj, trackId),
        (seen) => seen.search,
      ),
    ).toEqual(visible);

    // 1. A member reports the other mix from its card's menu.
    const member = await signedIn(reporter);
    await member.goto(`${baseUrl}/mix/${reported.id}`);
    await member.getByRole('button', { name: `More actions for ${reported.title}` }).click();
    await member.getByRole('button', { name: 'Report this mix' }).click();
    const dialog = member.getByRole('dialog', { name: `Report this mix: ${reported.title}` });
    await dialog.getByRole('radio', { name: 'Spam' }).check();
    await dialog.getByLabel('Note for the moderators (optional)').fill('The same loop uploaded again and again');
    expect(await seriousViolations(member)).toEqual([]);
    await dialog.screenshot({ path: join(REPO_DIR, 'docs/screenshots/report-dialog.png') });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog
      .getByRole('status')
      .getByText(/the moderators will look at it/)
      .waitFor();
    // Twice is refused with words.
    await member.reload();
    await member.getByRole('button', { name: `More actions for ${reported.title}` }).click();
    await member.getByRole('button', { name: 'Report this mix' }).click();
    await member.getByRole('radio', { name: 'Abuse' }).check();
    await member.getByRole('button', { name: 'Send report' }).click();
    await member
      .getByRole('alert')
      .getByText(/^Already reported/)
      .waitFor();
    await member.goto(`${baseUrl}/reports`);
    await member
      .getByRole('region', { name: 'Your reports' })
      .getByRole('row', { name: new RegExp(reported.title) })
      .getByText('Waiting for a moderator')
      .waitFor();
    expect(await seriousViolations(member)).toEqual([]);

    // 2. The rights holder files a notice on the mix that plays their track: it is hidden at once.
    const rights = await signedIn(holder);
    await rights.goto(`${baseUrl}/mix/${noticed.id}`);
    await rights.getByRole('button', { name: 'File a copyright notice' }).click();
    await rights.getByLabel('Your track in this mix').selectOption({ label: `1. Tideline ${suffix} 1` });
    const noticeText = `Tideline ${suffix} 1 is my recording; this mix plays it without a licence.`;
    await rights.getByLabel(/^The notice/).fill(noticeText);
    expect(await seriousViolations(rights)).toEqual([]);
    await rights.getByRole('button', { name: 'File notice' }).click();
    await rights.getByRole('link', { name: 'Follow the notice' }).click();
    await rights.getByRole('heading', { name: new RegExp(`^Copyright notice from ${creatorName}`) }).waitFor();
    await rights.getByText(noticeText).waitFor();

    const hidden = { feed: false, search: false, track: false, profile: false, publicApi: 451, shareLink: 451 };
    expect(
      await eventually(
        () => surfaces(reporter, noticed, dj, trackId),
        (seen) => !seen.search,
      ),
    ).toEqual(hidden);
    // The web says the same: the track page, the profile, search, and the share link's page.
    await member.goto(`${baseUrl}/track/${trackId}`);
    await member
      .getByRole('heading', { name: `Tideline ${suffix} 1` })
      .first()
      .waitFor();
    expect(await member.getByRole('link', { name: noticed.title }).count()).toBe(0);
    await member.goto(`${baseUrl}/profile/${dj.userName}`);
    await member.getByText('No mixes yet.').waitFor();
    await member.goto(`${baseUrl}/search?q=${encodeURIComponent(noticed.title)}`);
    await member.getByRole('heading', { level: 1 }).first().waitFor();
    await member.waitForLoadState('networkidle');
    expect(await member.getByRole('link', { name: noticed.title }).count()).toBe(0);
    const visitor = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const shared = await visitor.goto(`${baseUrl}/shared-mix/${noticed.id}`);
    expect(shared?.status()).toBe(451);
    await visitor.getByText('Unavailable for legal reasons').first().waitFor();
    // Home's carousel (newest first) goes without it; moving inside the app (no server page) says "unavailable", not "not found".
    await member.goto(`${baseUrl}/home`);
    await member.getByRole('article').first().waitFor();
    expect(await member.getByRole('article', { name: noticed.title }).count()).toBe(0);
    await member.evaluate((path) => {
      history.pushState({}, '', path);
      dispatchEvent(new PopStateEvent('popstate'));
    }, `/mix/${noticed.id}`);
    await member.getByRole('heading', { name: 'Unavailable for legal reasons' }).waitFor();

    // 3. The owner sees why on their own mix page, and counter-notices.
    const owner = await signedIn(dj);
    await owner.goto(`${baseUrl}/mix/${noticed.id}`);
    await owner.getByRole('heading', { name: 'Hidden: copyright notice' }).waitFor();
    await owner.getByText(noticeText).waitFor();
    await shot(owner, 'mix-hold');
    const counterText = 'I licensed this recording from the label in 2025; the licence is attached to my account.';
    await owner.getByLabel('Why the mix may stay').fill(counterText);
    expect(await seriousViolations(owner)).toEqual([]);
    await owner.getByRole('button', { name: 'Send counter-notice' }).click();
    await owner
      .getByText(/Counter-notice sent: a moderator decides/)
      .first()
      .waitFor();
    // Both parties see the history.
    await rights.reload();
    await rights.getByText(counterText).waitFor();
    await rights.getByText(/The mix’s owner sent a counter-notice/).waitFor();
    expect(await seriousViolations(rights)).toEqual([]);
    await shot(rights, 'notice');

    // 4. A moderator reads both sides in the queue and restores the mix.
    const mod = await signedIn(moderator);
    await mod.goto(`${baseUrl}/moderation`);
    const item = mod.getByRole('listitem').filter({ hasText: counterText });
    await item.getByText(noticeText).waitFor();
    await mod.getByRole('listitem').filter({ hasText: 'The same loop uploaded again and again' }).first().waitFor();
    expect(await seriousViolations(mod)).toEqual([]);
    await shot(mod, 'moderation-trust');
    await item.getByLabel(/^Reason/).fill('The licence checks out');
    await item.getByRole('button', { name: 'Restore mix' }).click();
    await item.waitFor({ state: 'detached' });

    // Everything is back, exactly as it was.
    expect(
      await eventually(
        () => surfaces(reporter, noticed, dj, trackId),
        (seen) => seen.search,
      ),
    ).toEqual(visible);
    expect((await visitor.goto(`${baseUrl}/shared-mix/${noticed.id}`))?.status()).toBe(200);
    await visitor.getByRole('heading', { name: noticed.title }).first().waitFor();
    await owner.reload();
    await owner.getByRole('heading', { name: noticed.title }).first().waitFor();
    expect(await owner.getByRole('heading', { name: /^Hidden/ }).count()).toBe(0);
    await rights.reload();
    await rights.getByText(/Restored: the mix is back/).waitFor();

    // The public transparency page counts it all, without names.
    await visitor.goto(`${baseUrl}/transparency`);
    await visitor.getByRole('region', { name: 'Counts by month' }).waitFor();
    expect(await seriousViolations(visitor)).toEqual([]);
    expect(await visitor.content()).not.toContain(creatorName);
    await shot(visitor, 'transparency');
    await visitor.close();
  }, 240_000);
});
