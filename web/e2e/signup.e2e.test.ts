import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { BROWSER_STEP_TIMEOUT_MS, launchBrowser } from './support/browser';
import { graphql, PASSWORD } from './support/world';

const baseUrl = inject('baseUrl');

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

/** The journeys below follow one member: made by the first, whose password the others change. */
const suffix = randomBytes(4).toString('hex');
const member = { email: `e2e_signup_${suffix}@example.com`, userName: `new_${suffix}`, password: PASSWORD };

async function signInOverApi(password: string): Promise<string> {
  const { signIn } = await graphql<{ signIn: { token: string } }>(
    baseUrl,
    null,
    'mutation($email: String!, $password: String!) { signIn(input: { email: $email, password: $password }) { token } }',
    { email: member.email, password },
  );
  return signIn.token;
}

/** Opens a private screen as the member: the token goes into localStorage before the app starts. */
async function openSignedIn(path: string, token: string) {
  await page.addInitScript((value) => localStorage.setItem('token', value), token);
  await page.goto(`${baseUrl}${path}`);
}

const quotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/**
 * The reset link from the mail the API wrote to its outbox (no SMTP in the journeys). The server's DATA_DIR is a
 * temporary folder `mixcrate-e2e-*`; the member's unique address picks their mail out of any run's outbox.
 */
async function resetLinkFromOutbox(email: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const runs = (await readdir(tmpdir())).filter((name) => name.startsWith('mixcrate-e2e-'));
    for (const run of runs) {
      const outbox = join(tmpdir(), run, 'outbox');
      const mails = await readdir(outbox).catch(() => [] as string[]);
      for (const mail of mails) {
        const text = quotedPrintable(await readFile(join(outbox, mail), 'utf8'));
        if (!text.includes(`To: ${email}`)) continue;
        const link = /https?:\/\/\S+?\/signin\/password-reset\?email=[^\s"<>]+/.exec(text)?.[0];
        if (link) return link.replaceAll('&amp;', '&');
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no reset mail for ${email} in any outbox under ${tmpdir()} within 30 s`);
}

describe('signing up', () => {
  it('goes through every step, resumes after a reload, and lands on /home', async () => {
    await context.grantPermissions(['geolocation'], { origin: baseUrl });
    await context.setGeolocation({ latitude: 52.52, longitude: 13.405 });

    await page.goto(`${baseUrl}/signin`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(`${baseUrl}/signup`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();

    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByLabel('Confirm password').fill('Mixcrate2!');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm password').fill(member.password);
    await page.getByRole('checkbox', { name: /send me news/i }).check();
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(`${baseUrl}/signup/username`);
    await page.getByLabel('Username', { exact: true }).fill(member.userName);
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL(`${baseUrl}/signup/location`);
    // A reload resumes on the open step, and a step further on leads back to it.
    await page.reload();
    await page.getByRole('heading', { name: 'Where are you?' }).waitFor();
    await page.goto(`${baseUrl}/signup/conduct`);
    await page.waitForURL(`${baseUrl}/signup/location`);
    await page.getByRole('button', { name: 'Use my location' }).click();
    await page.getByText('Found you.').waitFor();
    expect(await page.getByLabel('Latitude').inputValue()).toBe('52.52');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL(`${baseUrl}/signup/user-type`);
    await page.getByRole('radio', { name: 'DJ', exact: true }).check();
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL(`${baseUrl}/signup/conduct`);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(`${baseUrl}/signup/user-type`);
    expect(await page.getByRole('radio', { name: 'DJ', exact: true }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL(`${baseUrl}/signup/conduct`);
    await page.getByRole('checkbox', { name: 'I agree to the mixcrate code of conduct' }).check();
    await page.getByRole('button', { name: 'Finish' }).click();

    await page.waitForURL(`${baseUrl}/home`);
    const profile = page.getByRole('link', { name: 'Your profile' });
    await profile.waitFor();
    expect(await profile.getAttribute('href')).toBe(`/profile/${member.userName}`);

    const { me } = await graphql<{ me: Record<string, unknown> }>(
      baseUrl,
      await page.evaluate(() => localStorage.getItem('token')),
      '{ me { userName userType hasOptedIn isAgreedToConduct location { latitude longitude } } }',
    );
    expect(me).toEqual({
      userName: member.userName,
      userType: 'DJ',
      hasOptedIn: true,
      isAgreedToConduct: true,
      location: { latitude: 52.52, longitude: 13.405 },
    });
  });
});

describe('settings', () => {
  it('changes the password: old one checked, result shown, then the form clears', async () => {
    await openSignedIn('/settings', await signInOverApi(member.password));
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const change = page.getByRole('button', { name: 'Change' });
    expect(await change.isDisabled()).toBe(true);

    await page.getByLabel('Old password').fill('Wrongpass1!');
    await page.getByLabel('New password', { exact: true }).fill('Changed1!');
    await page.getByLabel('Confirm new password').fill('Changed1!');
    await change.click();
    expect(await page.getByRole('alert').textContent()).toBe('Password is incorrect');

    await page.getByLabel('Old password').fill(member.password);
    await change.click();
    await page.getByText('Password updated').waitFor();
    await page.getByText('Password updated').waitFor({ state: 'detached', timeout: 4_000 });
    expect(await page.getByLabel('New password', { exact: true }).inputValue()).toBe('');
    member.password = 'Changed1!';
    await expect(signInOverApi(member.password)).resolves.toBeTruthy();
  });
});

describe('password reset', () => {
  it('mails a link, creates a new password with it, and signs in with the new password', async () => {
    await page.goto(`${baseUrl}/signin`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${baseUrl}/signin/enter-reset-password`);
    const send = page.getByRole('button', { name: 'Send email' });
    expect(await send.isDisabled()).toBe(true);
    await page.getByLabel('Email').fill(member.email);
    await send.click();
    await page.getByText('If an account exists for that email').waitFor();

    const link = await resetLinkFromOutbox(member.email);
    expect(link.startsWith(`${baseUrl}/signin/password-reset?email=`)).toBe(true);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Create new password' }).waitFor();
    await page.getByText(member.email).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('Created1!');
    await page.getByRole('button', { name: 'Show new password' }).click();
    expect(await page.getByLabel('New password', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByLabel('Confirm password').fill('Created1!');
    await page.getByRole('button', { name: 'Create password' }).click();
    await page.getByText('Password has been created').waitFor();
    const created = Date.now();

    await page.waitForURL(`${baseUrl}/signin`);
    expect(Date.now() - created).toBeGreaterThanOrEqual(2_500);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill('Created1!');
    await page.getByLabel('Confirm password').fill('Created1!');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(`${baseUrl}/home`);

    // The link is single-use.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('Another1!');
    await page.getByLabel('Confirm password').fill('Another1!');
    await page.getByRole('button', { name: 'Create password' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('invalid or has expired');
  });
});
