#!/usr/bin/env node
// Refreshes the README's screenshots from a running mixcrate with its demo world (`npm start` in another terminal):
//   npm run screenshots [-- http://localhost:4000]
// Signs in as the demo DJ, then photographs the home carousel and a mix page in Debian's Chromium.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'screenshots');
const baseUrl = (process.argv[2] ?? process.env.MIXCRATE_URL ?? 'http://localhost:4000').replace(/\/+$/, '');
const email = process.env.DEMO_EMAIL ?? 'dj@demo.mixcrate.app';
const password = process.env.DEMO_PASSWORD ?? 'Mixcrate1!';

const signIn = await fetch(`${baseUrl}/api/auth`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email, password }),
}).catch((error) => {
  throw new Error(`mixcrate is not answering at ${baseUrl} (${error.message}); start it with npm start`);
});
if (!signIn.ok) throw new Error(`signing in as ${email} failed (${signIn.status}): is the demo world loaded?`);
const { token } = await signIn.json();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
  await context.addInitScript((value) => localStorage.setItem('token', value), token);
  const page = await context.newPage();
  await mkdir(OUT, { recursive: true });

  await page.goto(`${baseUrl}/home`, { waitUntil: 'networkidle' });
  await page
    .getByRole('button', { name: /^Play / })
    .first()
    .waitFor();
  await page
    .getByRole('button', { name: /^Play / })
    .first()
    .click();
  await page.waitForTimeout(3000);
  await page.screenshot({ path: join(OUT, 'home.png') });

  await page.locator('article h2 a').first().click();
  await page.getByRole('heading', { name: 'Tracklist' }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  await page.screenshot({ path: join(OUT, 'mix.png') });
  console.log(`wrote ${join(OUT, 'home.png')} and ${join(OUT, 'mix.png')}`);
} finally {
  await browser.close();
}
