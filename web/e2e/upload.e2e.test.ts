import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sineMp3 } from '../../api/test/support/audio';
import { seriousViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { fillStepOne, signedInPage, smallUpload, type UploadFiles } from './support/upload';
import { REPO_DIR } from './support/web-build';
import { graphql, type Member, signUpMember } from './support/world';

const baseUrl = inject('baseUrl');
const databaseUrl = inject('databaseUrl');
const run = promisify(execFile);

let browser: Browser;
let files: UploadFiles;
const pageErrors: string[] = [];

// Far from the other journeys' members: these DJs' mixes are the only ones near them.
const REYKJAVIK = { latitude: 64.1466, longitude: -21.9426 };

async function page(member: Member, width = 1280): Promise<Page> {
  const opened = await signedInPage(browser, member.token, width);
  opened.on('pageerror', (error) => pageErrors.push(error.message));
  return opened;
}

/** Through step 1 to step 2, with five typed rows (no catalogue track matches them). */
async function uploadAndType(tab: Page, title: string, upload: UploadFiles = files): Promise<void> {
  await tab.goto(`${baseUrl}/upload`);
  await fillStepOne(tab, title, upload);
  await tab.getByRole('button', { name: 'Upload mix' }).click();
  await tab.waitForURL(`${baseUrl}/upload/track-list`, { timeout: 60_000 });
}

async function typeRows(tab: Page, rows: { artist: string; title: string }[], from = 0): Promise<void> {
  for (const [index, row] of rows.entries()) {
    await tab.getByLabel(`Artist, track ${from + index + 1}`, { exact: true }).fill(row.artist);
    await tab.getByLabel(`Track title, track ${from + index + 1}`, { exact: true }).fill(row.title);
  }
}

/** How many mixes (drafts included) a member has in the journeys' database; null when the run has no database URL. */
async function mixCount(memberId: string): Promise<number | null> {
  if (!databaseUrl) return null;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('select count(*) from mix where owner_id = $1', [memberId]);
    return Number(rows[0]?.count ?? 0);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  files = await smallUpload();
});
afterAll(async () => {
  await browser?.close();
});

describe('step 1', () => {
  it('checks the files and names every missing item', async () => {
    const dj = await signUpMember(baseUrl, REYKJAVIK, 'up_checks');
    const tab = await page(dj);
    await tab.goto(`${baseUrl}/upload`);
    await tab.getByRole('heading', { name: 'Upload your mix' }).waitFor();
    await tab.getByRole('button', { name: 'Upload mix' }).click();
    await expect.poll(() => tab.getByRole('alert').textContent()).toBe('Cover Image + Title + MP3 audio file + Genre');

    await tab.getByLabel('Choose MP3').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await tab.getByText('Wrong format! Try MP3').waitFor();
    await tab.getByLabel('Choose cover image').setInputFiles({ name: 'cover.bmp', mimeType: 'image/bmp', buffer: Buffer.from('BM') });
    await tab.getByText('Wrong format! Use .jpg, .png, .gif, or .webp').waitFor();

    await tab.getByLabel('Mix title').fill('Only a title');
    await tab.getByText('House', { exact: true }).click();
    await tab.getByRole('button', { name: 'Upload mix' }).click();
    await tab.getByText('Cover Image + MP3 audio file', { exact: true }).waitFor();
    // The form survives a reload.
    await tab.reload();
    await expect.poll(() => tab.getByLabel('Mix title').inputValue()).toBe('Only a title');
    expect(await tab.getByRole('radio', { name: 'House', exact: true }).isChecked()).toBe(true);
    await tab.context().close();
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it('a Cancel while the MP3 is on its way leaves nothing on the server', async () => {
    const dj = await signUpMember(baseUrl, REYKJAVIK, 'up_cancel');
    const tab = await page(dj);
    let uploadUrl = '';
    tab.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().endsWith('/api/uploads')) {
        uploadUrl = new URL(response.headers().location ?? '', response.url()).toString();
      }
    });
    // The bytes never get through: the upload is pending until the DJ cancels it.
    await tab.route('**/api/uploads/*', (route) => (route.request().method() === 'PATCH' ? undefined : route.continue()));
    await tab.goto(`${baseUrl}/upload`);
    await fillStepOne(tab, 'Cancelled mix', files);
    await tab.getByRole('button', { name: 'Upload mix' }).click();
    await tab.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await expect.poll(() => uploadUrl).toMatch(/\/api\/uploads\/[0-9a-f]{32}$/);
    await tab.getByRole('button', { name: 'Cancel' }).click();
    await tab.getByText('Upload cancelled').waitFor();

    // The server holds neither the upload nor a draft; the form is empty again.
    const head = await fetch(uploadUrl, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', 'x-auth-token': dj.token } });
    expect(head.status).toBe(404);
    expect(await mixCount(dj.id)).toBe(databaseUrl ? 0 : null);
    expect(await tab.getByLabel('Mix title').inputValue()).toBe('');
    expect(await tab.evaluate(() => [localStorage.getItem('upload_pending'), localStorage.getItem('mix_id')])).toEqual([null, null]);
    await tab.context().close();
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it('a reload in the middle of the upload continues it from where the server got to', async () => {
    const dj = await signUpMember(baseUrl, REYKJAVIK, 'up_resume');
    // About 17 MB: three 8 MB PATCHes. A tone's frames one after another are still one MP3.
    const tone = sineMp3({ seconds: 60, kbps: 128, sampleRate: 44_100, channels: 1 });
    // A file on disk, as a DJ's is: chosen again, it is the same file (name, type, size and modification time).
    const work = await mkdtemp(join(tmpdir(), 'mixcrate-e2e-resume-'));
    const mp3Path = join(work, 'long-mix.mp3');
    await writeFile(mp3Path, Buffer.concat(Array(18).fill(tone)));
    const big: UploadFiles = { ...files, mp3: mp3Path };
    const tab = await page(dj);
    const offsets: number[] = [];
    let holdSecondChunk = true;
    tab.on('request', (request) => {
      if (request.method() === 'PATCH') offsets.push(Number(request.headers()['upload-offset']));
    });
    // The first chunk gets through; the second hangs, as on a dropped connection, and the DJ reloads.
    await tab.route('**/api/uploads/*', (route) =>
      route.request().method() === 'PATCH' && route.request().headers()['upload-offset'] !== '0' && holdSecondChunk
        ? undefined
        : route.continue(),
    );
    await tab.goto(`${baseUrl}/upload`);
    await fillStepOne(tab, 'Resumed mix', big);
    await tab.getByRole('button', { name: 'Upload mix' }).click();
    await expect.poll(() => offsets.length, { timeout: 30_000 }).toBe(2);
    const reached = offsets[1] ?? 0;
    expect(reached).toBeGreaterThan(0);

    holdSecondChunk = false;
    await tab.reload();
    await tab.getByRole('heading', { name: 'Would you like to start again?' }).waitFor();
    await tab.getByRole('button', { name: 'Continue' }).click();
    await tab
      .getByRole('status')
      .filter({ hasText: /Your upload of long-mix\.mp3 stopped at \d+%/ })
      .waitFor();
    // Title, cover and genre came back from storage; the file is chosen again.
    expect(await tab.getByLabel('Mix title').inputValue()).toBe('Resumed mix');
    await tab.getByLabel('Choose MP3').setInputFiles(mp3Path);
    const before = offsets.length;
    await tab.getByRole('button', { name: 'Upload mix' }).click();
    await tab.waitForURL(`${baseUrl}/upload/track-list`, { timeout: 60_000 });
    // The first bytes sent after the reload start where the server had got to, not at 0.
    expect(offsets[before]).toBe(reached);
    expect(offsets.slice(before).every((offset) => offset >= reached)).toBe(true);
    await tab.context().close();
    await rm(work, { recursive: true, force: true });
    expect(pageErrors.splice(0)).toEqual([]);
  }, 120_000);
});

describe('steps 2 to 4', () => {
  it('a lookup that finds nothing twice offers Skip; a wrong code shows the documented words; the BETA code publishes', async () => {
    const dj = await signUpMember(baseUrl, REYKJAVIK, 'up_code');
    const title = `Code mix ${dj.userName}`;
    const tab = await page(dj);
    await uploadAndType(tab, title);
    await tab.getByRole('heading', { name: 'Add Tracks (min. 5)' }).waitFor();
    // Missing fields are named for 3 s.
    await tab.getByRole('button', { name: 'Search tracks' }).click();
    await tab.getByText('Missing: Empty fields').waitFor();
    await tab.getByText('Missing: Empty fields').waitFor({ state: 'detached' });
    const rows = Array.from({ length: 6 }, (_, index) => ({ artist: `Nobody ${index + 1}`, title: `Unheard ${index + 1}` }));
    await tab.getByRole('button', { name: 'Add +' }).click();
    await typeRows(tab, rows);
    // Rows are kept as typed across a reload.
    await tab.reload();
    await expect.poll(() => tab.getByLabel('Track title, track 6', { exact: true }).inputValue()).toBe('Unheard 6');
    await tab.getByRole('button', { name: 'Search tracks' }).click();
    await tab.getByText("We couldn't find any track data - please check your spelling and try again").waitFor();
    expect(await tab.getByRole('button', { name: 'Skip' }).count()).toBe(0);
    await tab.getByRole('button', { name: 'Try again' }).click();
    await tab.getByText('Sorry, something went wrong - skip this step').waitFor();
    await tab.getByRole('button', { name: 'Skip' }).click();

    await tab.waitForURL(`${baseUrl}/upload/payment`);
    await tab.getByRole('heading', { name: title }).waitFor();
    await tab.getByRole('img', { name: `Cover of ${title}` }).waitFor();
    await tab.getByText('Nobody 6 – Unheard 6').waitFor();
    await tab.getByText('Use code: free-mix').waitFor();
    await tab.getByPlaceholder('Got a BETA code?*').fill('not-a-code');
    await tab.getByRole('button', { name: 'Apply' }).click();
    await tab.getByText('Invalid code:', { exact: true }).waitFor();
    await tab.getByText(/^Please try again or email .+ for a BETA code$/).waitFor();
    await tab.getByPlaceholder('Got a BETA code?*').fill('  FREE-MIX ');
    await tab.getByRole('button', { name: 'Apply' }).click();
    await tab.waitForURL(`${baseUrl}/upload/payment/success-code`);
    await tab.getByRole('heading', { name: 'Success' }).waitFor();
    await tab.getByText('Thanks for uploading. You can share your mix with friends and fans!').waitFor();
    expect(await tab.evaluate(() => localStorage.getItem('mix_id'))).toBeNull();

    // Published: on the DJ's profile (own uploads), and at the share link with the typed tracklist.
    await tab.goto(`${baseUrl}/profile/${dj.userName}`);
    await tab.getByRole('link', { name: title }).first().click();
    await tab.waitForURL(/\/mix\/[0-9a-f-]{36}$/);
    const mixId = tab.url().split('/').pop() ?? '';
    await tab.goto(`${baseUrl}/shared-mix/${mixId}`);
    await tab.getByText(`Shared by:`).waitFor();
    await tab.getByText('Unheard 6').waitFor();
    await tab.context().close();
    expect(pageErrors.splice(0)).toEqual([]);
  }, 90_000);
});

interface ReferenceTrack {
  trackId: string;
  title: string;
  creators: string[];
  startTime: number;
}

/** Through step 1 and step 2 with rows typed to match catalogue tracks, past step 3's choices, to step 4. */
async function uploadToPayment(tab: Page, title: string, tracks: ReferenceTrack[]): Promise<void> {
  await uploadAndType(tab, title);
  const rows = tracks.map((track) => ({ artist: track.creators.join(', '), title: track.title }));
  await typeRows(tab, [...rows, { artist: 'Typed Artist', title: 'Typed Title' }].slice(0, 5));
  await tab.getByRole('button', { name: 'Search tracks' }).click();
  await tab.waitForURL(`${baseUrl}/upload/confirm`);
  await tab.getByRole('group', { name: /^1\. / }).getByText('Choose option').waitFor();
  await tab.getByRole('button', { name: 'Confirm' }).click();
  await tab.waitForURL(`${baseUrl}/upload/payment`);
  await tab.getByRole('heading', { name: title }).waitFor();
}

describe.runIf(databaseUrl)('with demo references in the catalogue', () => {
  let work: string;
  let mixMp3: string;
  let references: ReferenceTrack[];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'mixcrate-e2e-recognition-'));
    mixMp3 = join(work, 'demo-mix.mp3');
    const made = await run(process.execPath, ['--import', 'tsx', '../web/e2e/support/demo-recognition.ts', databaseUrl ?? '', mixMp3], {
      cwd: join(REPO_DIR, 'api'),
      maxBuffer: 1024 * 1024,
    });
    references = JSON.parse(made.stdout.trim().split('\n').pop() ?? '[]') as ReferenceTrack[];
  }, 120_000);
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('recognition streams in on step 2; recognised tracks come first with their times; the mix is on home, profile and share link', async () => {
    const tracklist = references;
    const dj = await signUpMember(baseUrl, REYKJAVIK, 'up_recog');
    const title = `Recognised mix ${dj.userName}`;
    const tab = await page(dj);
    // Every state the recognition panel shows, as it shows it.
    await tab.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { recognitionSeen: string[] }).recognitionSeen = seen;
      new MutationObserver(() => {
        const panel = document.querySelector('section[aria-labelledby="recognition-title"]');
        const text = panel?.textContent ?? '';
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const upload: UploadFiles = { ...files, mp3: { name: 'demo-mix.mp3', mimeType: 'audio/mpeg', buffer: await readFile(mixMp3) } };
    await uploadAndType(tab, title, upload);
    await tab.getByText(/^Scan complete: \d+ tracks? found\.$/).waitFor({ timeout: 90_000 });
    const seen = await tab.evaluate(() => (window as unknown as { recognitionSeen: string[] }).recognitionSeen);
    // Live: the share scanned showed on screen while the scan ran, before the result.
    const running = seen.filter((text) => /Scanning your mix: \d+%/.test(text));
    expect(running.length, seen.join(' | ')).toBeGreaterThan(0);
    for (const track of tracklist) await tab.getByRole('list', { name: 'Tracks found so far' }).getByText(track.title).waitFor();

    // The rows were filled from recognition in play order; the DJ types the fifth.
    for (const [index, track] of tracklist.entries()) {
      await expect.poll(() => tab.getByLabel(`Track title, track ${index + 1}`, { exact: true }).inputValue()).toBe(track.title);
      expect(await tab.getByLabel(`Artist, track ${index + 1}`, { exact: true }).inputValue()).toBe(track.creators.join(', '));
    }
    await typeRows(tab, [{ artist: 'Typed Artist', title: 'Typed Title' }], tracklist.length);
    await tab.getByRole('button', { name: 'Search tracks' }).click();

    await tab.waitForURL(`${baseUrl}/upload/confirm`);
    await tab.getByRole('heading', { name: 'Confirm tracklist' }).waitFor();
    for (const [index, track] of tracklist.entries()) {
      const slot = tab.getByRole('group', { name: new RegExp(`^${index + 1}\\. `) });
      expect(await slot.getByRole('radio', { checked: true }).count()).toBe(1);
      const chosen = slot.locator('label').filter({ has: tab.getByRole('radio', { checked: true }) });
      await expect.poll(() => chosen.textContent()).toContain(track.title);
      await expect.poll(() => chosen.textContent()).toMatch(/Found in your mix at \d+:\d\d/);
    }
    const typedSlot = tab.getByRole('group', { name: new RegExp(`^${tracklist.length + 1}\\. `) });
    await typedSlot.getByText('No options found').waitFor();
    expect(await typedSlot.getByRole('radio', { name: /as typed/ }).isChecked()).toBe(true);
    // The choices survive a reload.
    await tab.reload();
    const sent: string[] = [];
    tab.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.postData()?.includes('SetTracklist')) sent.push(request.postData() ?? '');
    });
    await tab.getByRole('button', { name: 'Confirm' }).click();

    await tab.waitForURL(`${baseUrl}/upload/payment`);
    await tab.getByRole('heading', { name: title }).waitFor();
    // The recognised tracks went to the server with their times.
    expect(sent.join('').match(/"startTime"/g)?.length, sent.join('')).toBe(tracklist.length);
    await tab.getByPlaceholder('Got a BETA code?*').fill('free-mix');
    await tab.getByRole('button', { name: 'Apply' }).click();
    await tab.getByRole('heading', { name: 'Success' }).waitFor();

    // Home (newest first, and nobody else's mix is near), the profile, and the share link with the times.
    await tab.getByRole('link', { name: 'Back to home' }).click();
    await tab.waitForURL(`${baseUrl}/home`);
    await tab.getByText(title).first().waitFor();
    await tab.goto(`${baseUrl}/profile/${dj.userName}`);
    await tab.getByRole('link', { name: title }).first().click();
    await tab.waitForURL(/\/mix\/[0-9a-f-]{36}$/);
    const mixId = tab.url().split('/').pop() ?? '';
    await tab.goto(`${baseUrl}/shared-mix/${mixId}`);
    for (const track of tracklist) await tab.getByText(track.title).first().waitFor();
    await tab.getByText('Typed Title').waitFor();
    await expect.poll(() => tab.getByRole('button', { name: /^Play from \d+:\d\d$/ }).count()).toBe(tracklist.length);
    await tab.context().close();
    expect(pageErrors.splice(0)).toEqual([]);
  }, 180_000);

  it('a test-mode single purchase (after a canceled one) publishes the mix; settings shows its hosting end, Renew and billing', async () => {
    const dj = await signUpMember(baseUrl, REYKJAVIK, 'up_buy');
    const title = `Bought mix ${dj.userName}`;
    const tab = await page(dj);
    await uploadToPayment(tab, title, references);

    await tab.getByRole('button', { name: 'Buy single upload' }).click();
    await tab.waitForURL(/\/test-mode\/checkout\//);
    await tab.getByRole('button', { name: 'Cancel' }).click();
    await tab.waitForURL(/\/upload\/payment\/canceled-purchase/);
    await tab.getByRole('heading', { name: 'Payment canceled' }).waitFor();
    await tab.getByText('Consider subscribing to get the best from the product.').waitFor();

    await tab.goto(`${baseUrl}/upload/payment`);
    await tab.getByRole('button', { name: 'Buy single upload' }).click();
    await tab.waitForURL(/\/test-mode\/checkout\//);
    await tab.getByRole('button', { name: 'Pay (test mode)' }).click();
    await tab.waitForURL(/\/upload\/payment\/success-purchase\?session_id=/);
    await tab.getByRole('heading', { name: 'Success' }).waitFor();
    await tab.getByText('Thanks for uploading. You can share your mix with friends and fans!').waitFor();
    expect(await tab.evaluate(() => localStorage.getItem('mix_id'))).toBeNull();

    await tab.goto(`${baseUrl}/settings`);
    const billing = tab.getByRole('region', { name: 'Billing' });
    await billing.getByText(/^Single purchase · Hosting ends \w{3} \d+\w\w \d\d$/).waitFor();
    await billing.getByRole('button', { name: `Renew ${title} for 12 months ($4.00)` }).waitFor();
    await billing.getByRole('button', { name: 'Manage billing' }).click();
    await tab.waitForURL(/\/test-mode\/billing\//);
    await tab.getByRole('link', { name: 'Return to mixcrate' }).click();
    await tab.waitForURL(`${baseUrl}/settings`);

    await tab.goto(`${baseUrl}/profile/${dj.userName}`);
    await tab.getByRole('link', { name: title }).first().waitFor();
    await tab.context().close();
    expect(pageErrors.splice(0)).toEqual([]);
  }, 120_000);

  it('a test-mode subscription publishes the mix, the next upload publishes at once, and earnings export as CSV', async () => {
    const dj = await signUpMember(baseUrl, REYKJAVIK, 'up_sub');
    const title = `Subscribed mix ${dj.userName}`;
    const tab = await page(dj);
    await uploadToPayment(tab, title, references);
    await tab.getByRole('button', { name: 'Subscribe' }).click();
    await tab.waitForURL(/\/test-mode\/checkout\//);
    await tab.getByRole('button', { name: 'Pay (test mode)' }).click();
    await tab.waitForURL(/\/upload\/payment\/success-subscription\?session_id=/);
    await tab.getByText('Thanks for subscribing. We hope you enjoy the product.').waitFor();
    // The server has published the mix and started the paid month by now.
    const paidAt = Date.now();

    await tab.goto(`${baseUrl}/settings`);
    const billing = tab.getByRole('region', { name: 'Billing' });
    await billing.getByText(/^Subscription: active, renews /).waitFor();
    await billing.getByText('Subscription · Hosted while your subscription is active').waitFor();

    // With the subscription, the next mix is published from step 4 without a checkout.
    const second = `Second mix ${dj.userName}`;
    await uploadToPayment(tab, second, references);
    await tab.getByRole('button', { name: 'Publish with your subscription' }).click();
    await tab.waitForURL(`${baseUrl}/upload/payment/success-code`);
    await tab.getByRole('heading', { name: 'Success' }).waitFor();
    await tab.goto(`${baseUrl}/profile/${dj.userName}`);
    await tab.getByRole('link', { name: second }).first().waitFor();

    // The subscriber listens to the first mix; once the paid month is over, 70% of it goes to that mix's creators.
    const { mixesByUser } = await graphql<{ mixesByUser: { edges: { node: { id: string; title: string } }[] } }>(
      baseUrl,
      dj.token,
      'query($userName: String!) { mixesByUser(userName: $userName) { edges { node { id title } } } }',
      { userName: dj.userName },
    );
    const first = mixesByUser.edges.map((edge) => edge.node).find((mix) => mix.title === title);
    expect(first).toBeDefined();
    // A listen long enough to count (30 s), inside the paid month: sent with its times, as the player sends them.
    const start = paidAt + 1000;
    const end = start + 31_000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, end + 500 - Date.now())));
    // Listen calls (the GraphQL twins take the same times) (docs/player-and-listens.md#calls).
    for (const [path, body] of [
      ['add-new-listen', { start: new Date(start).toISOString() }],
      ['pause', { end: new Date(end).toISOString() }],
    ] as const) {
      const answer = await fetch(`${baseUrl}/api/mix/${path}/${first?.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': dj.token },
        body: JSON.stringify(body),
      });
      expect(answer.status, await answer.text()).toBe(200);
    }
    await run(process.execPath, ['--import', 'tsx', '../web/e2e/support/settle-rewards.ts', databaseUrl ?? ''], {
      cwd: join(REPO_DIR, 'api'),
    });

    // The ledger is an operator's to read: the DJ is made one the way an operator is (npm run admin).
    await run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'grant', 'operator', dj.email], {
      cwd: join(REPO_DIR, 'api'),
      env: { ...process.env, DATABASE_URL: databaseUrl ?? '' },
    });
    // The month is an earnings period with the mix's creators; its CSV comes from the API.
    await tab.goto(`${baseUrl}/settings`);
    const earnings = tab.getByRole('region', { name: 'Creator earnings' });
    await earnings.getByText('Subscriptions paid').waitFor();
    await earnings
      .getByRole('rowheader', { name: references[0]?.creators[0] ?? '' })
      .first()
      .waitFor();
    // Settings with a plan, hosted mixes and an earnings table: still nothing serious for axe-core, wide and narrow.
    expect(await seriousViolations(tab)).toEqual([]);
    await tab.setViewportSize({ width: 390, height: 900 });
    expect(await seriousViolations(tab)).toEqual([]);
    await tab.setViewportSize({ width: 1280, height: 900 });
    if (process.env.UPLOAD_SCREENSHOTS)
      await tab.screenshot({ path: join(process.env.UPLOAD_SCREENSHOTS, 'settings-1280.png'), fullPage: true });
    const [download] = await Promise.all([tab.waitForEvent('download'), earnings.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^mixcrate-earnings-\d{4}-\d{2}\.csv$/);
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    expect(csv.split(/\r?\n/)[0]).toBe('period,creator_key,creator_name,amount_cents,listened_seconds,subscribers');
    expect(csv).toContain(references[0]?.creators[0] ?? '');
    await tab.context().close();
    expect(pageErrors.splice(0)).toEqual([]);
  }, 150_000);
});
