import type { Browser, BrowserContext, Page } from 'playwright-core';
import { sineMp3 } from '../../../api/test/support/audio';
import { solidImage } from '../../../api/test/support/images';
import { BROWSER_STEP_TIMEOUT_MS } from './browser';

export interface UploadFiles {
  /** A file's contents, or the path of a file on disk. */
  mp3: { name: string; mimeType: string; buffer: Buffer } | string;
  cover: { name: string; mimeType: string; buffer: Buffer };
}

/** A short tone as the MP3 (64 kbps, 40 s: about 320 KB) and a plain PNG as the cover. */
export async function smallUpload(): Promise<UploadFiles> {
  return {
    mp3: { name: 'mix.mp3', mimeType: 'audio/mpeg', buffer: sineMp3({ seconds: 40, kbps: 64, sampleRate: 22_050, channels: 1 }) },
    cover: { name: 'cover.png', mimeType: 'image/png', buffer: await solidImage('png', 640, 480) },
  };
}

/** A page of a fresh context signed in as the member with `token`, `width` pixels wide. */
export async function signedInPage(browser: Browser, token: string, width = 1280): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ viewport: { width, height: 900 } });
  context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
  await context.addInitScript((value) => {
    if (!localStorage.getItem('token')) localStorage.setItem('token', value);
  }, token);
  return context.newPage();
}

/** Step 1 filled in through the page as a DJ would: title, MP3, cover cropped (Done), genre. */
export async function fillStepOne(page: Page, title: string, files: UploadFiles, genre = 'Techno'): Promise<void> {
  await page.getByLabel('Mix title').fill(title);
  await page.getByLabel('Choose MP3').setInputFiles(files.mp3);
  await page.getByText(typeof files.mp3 === 'string' ? (files.mp3.split('/').pop() ?? '') : files.mp3.name, { exact: true }).waitFor();
  await page.getByLabel('Choose cover image').setInputFiles(files.cover);
  const done = page.getByRole('button', { name: 'Done' });
  await done.waitFor();
  await page.waitForFunction(() => {
    const button = [...document.querySelectorAll('button')].find((element) => element.textContent === 'Done');
    return button && !button.disabled;
  });
  await done.click();
  await page.getByRole('img', { name: 'Your cover' }).waitFor();
  await page.getByText(genre, { exact: true }).click();
}

/** A draft mix of `owner` (create-mix over REST, as step 1 ends) with a typed tracklist of five, as step 3 ends. */
export async function createDraftWithTracklist(baseUrl: string, token: string, title: string): Promise<string> {
  const files = await smallUpload();
  const form = new FormData();
  form.append('cover', new Blob([new Uint8Array(files.cover.buffer)], { type: 'image/png' }), 'cover.png');
  form.append('title', title);
  if (typeof files.mp3 === 'string') throw new Error('smallUpload gives the MP3 as bytes');
  form.append('mp3', new Blob([new Uint8Array(files.mp3.buffer)], { type: 'audio/mpeg' }), 'mix.mp3');
  form.append('genre', 'deep_house');
  const response = await fetch(`${baseUrl}/api/mix/create-mix`, { method: 'POST', headers: { 'x-auth-token': token }, body: form });
  const created = (await response.json()) as { _id?: string };
  if (!response.ok || !created._id) throw new Error(`create-mix answered ${response.status}: ${JSON.stringify(created)}`);
  const tracks = TYPED_ROWS.map((row) => ({ title: row.title, creators: [row.artist], isManual: true }));
  const answer = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query: 'mutation($mixId: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $mixId, tracks: $tracks) { position } }',
      variables: { mixId: created._id, tracks },
    }),
  });
  if (!answer.ok) throw new Error(`setTracklist answered ${answer.status}`);
  return created._id;
}

/** Five rows a DJ might type at step 2. */
export const TYPED_ROWS = [
  { artist: 'Kerri Chandler', title: 'Rain' },
  { artist: 'Moodymann', title: 'Shades of Jae' },
  { artist: 'Larry Heard', title: 'Can You Feel It' },
  { artist: 'Theo Parrish', title: 'Summertime Is Here' },
  { artist: 'Floorplan', title: 'Never Grow Old' },
];
