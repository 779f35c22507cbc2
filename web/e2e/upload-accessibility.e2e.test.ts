import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { createDraftWithTracklist, fillStepOne, signedInPage, smallUpload, TYPED_ROWS } from './support/upload';
import { type Member, signUpMember } from './support/world';

const baseUrl = inject('baseUrl');
/** Set (a folder) to photograph steps 1 to 4 for the README: `UPLOAD_SCREENSHOTS=../docs/screenshots`. */
const screenshots = process.env.UPLOAD_SCREENSHOTS;

let browser: Browser;
let dj: Member;
let mixId: string;
const TITLE = 'Sunday Deep House Session';

beforeAll(async () => {
  browser = await launchBrowser();
  dj = await signUpMember(baseUrl, { latitude: -33.8688, longitude: 151.2093 }, 'a11y_dj');
  mixId = await createDraftWithTracklist(baseUrl, dj.token, TITLE);
});
afterAll(async () => {
  await browser?.close();
});

/** The upload state a DJ has after step 2's lookup: the draft, the typed rows, and options for each row. */
function storeWizardState(tab: Page) {
  const options = TYPED_ROWS.map((row, index) =>
    index === 4
      ? []
      : [
          {
            id: `00000000-0000-4000-8000-00000000000${index}`,
            title: row.title,
            creators: [row.artist],
            label: 'Test Label',
            coverUrl: null,
          },
        ],
  );
  return tab.evaluate(
    ({ id, rows, options }) => {
      localStorage.setItem('mix_id', id);
      localStorage.setItem('tracks', JSON.stringify(rows));
      localStorage.setItem('recognition_response', JSON.stringify(options));
    },
    { id: mixId, rows: TYPED_ROWS, options },
  );
}

async function check(tab: Page, name: string, width: number, photograph = false) {
  // Animations and fades done, fonts in: what a visitor sees.
  await tab.waitForLoadState('networkidle');
  expect(await seriousViolations(tab), `${name} at ${width} px`).toEqual([]);
  if (photograph && screenshots) {
    await mkdir(screenshots, { recursive: true });
    // The header is sticky: at the top, it sits where it belongs in a full-page picture.
    await tab.evaluate(() => window.scrollTo(0, 0));
    await tab.screenshot({ path: join(screenshots, `${name}-${width}.png`), fullPage: true });
  }
}

/** Upload flow, payment pages and settings: axe-core's WCAG 2.1 A and AA rules find nothing serious or critical (docs/upload.md#steps). */
describe.each([390, 1280])('at %i px', (width) => {
  it('every upload step, the payment result pages and settings', async () => {
    const tab = await signedInPage(browser, dj.token, width);
    await tab.goto(`${baseUrl}/upload`);
    await tab.getByRole('heading', { name: 'Upload your mix' }).waitFor();
    await fillStepOne(tab, TITLE, await smallUpload(), 'Deep House');
    await check(tab, 'upload-step1', width, true);
    await tab.getByRole('button', { name: 'Upload mix' }).evaluate((button) => button.scrollIntoView());
    await tab.getByLabel('Change cover image').setInputFiles((await smallUpload()).cover);
    await tab.getByRole('button', { name: 'Done' }).waitFor();
    await check(tab, 'upload-step1-crop', width);

    await storeWizardState(tab);
    await tab.goto(`${baseUrl}/upload`);
    await tab.getByRole('heading', { name: 'Would you like to start again?' }).waitFor();
    await check(tab, 'upload-start-again', width);

    await tab.goto(`${baseUrl}/upload/track-list`);
    await tab.getByText(/^Scan complete|^The scan could not finish|^Scanning|^Waiting/).waitFor();
    await check(tab, 'upload-step2', width, true);

    await tab.goto(`${baseUrl}/upload/confirm`);
    await tab.getByText('No options found').waitFor();
    await check(tab, 'upload-step3', width, true);

    await tab.goto(`${baseUrl}/upload/payment`);
    await tab.getByRole('heading', { name: TITLE }).waitFor();
    await tab.getByPlaceholder('Got a BETA code?*').fill('wrong-code');
    await tab.getByRole('button', { name: 'Apply' }).click();
    await tab.getByText('Invalid code:').waitFor();
    await check(tab, 'upload-step4', width, true);

    for (const path of ['canceled-purchase', 'canceled-subscription']) {
      await tab.goto(`${baseUrl}/upload/payment/${path}`);
      await tab.getByRole('heading', { name: 'Payment canceled' }).waitFor();
      await check(tab, path, width);
    }
    await tab.evaluate(() => localStorage.removeItem('mix_id'));
    await tab.goto(`${baseUrl}/upload/payment/success-code`);
    await tab.getByRole('heading', { name: 'Success' }).waitFor();
    await check(tab, 'success-code', width);

    await tab.goto(`${baseUrl}/settings`);
    await tab.getByRole('heading', { name: 'Settings' }).waitFor();
    await check(tab, 'settings', width);
    await tab.context().close();
  }, 90_000);
});

/**
 * Presses Tab (or Shift+Tab) until the focused element matches `selector` (and reads `text`, when given), at most 60 times: the
 * element is reachable by keyboard.
 */
async function tabTo(tab: Page, selector: string, text?: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let presses = 0; presses < 60; presses += 1) {
    await tab.keyboard.press(key);
    const reached = await tab.evaluate(
      ({ wanted, words }) => {
        const focused = document.activeElement;
        return Boolean(focused?.matches(wanted) && (words === null || focused.textContent === words));
      },
      { wanted: selector, words: text ?? null },
    );
    if (reached) return;
  }
  throw new Error(`Tab never reached ${selector}${text ? ` reading ${text}` : ''}`);
}

/** A keyboard press that opens the browser's file chooser; the chooser (the operating system's dialog) gets the file. */
async function chooseByKeyboard(tab: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([tab.waitForEvent('filechooser'), tab.keyboard.press('Space')]);
  await chooser.setFiles(file);
}

describe('by keyboard alone', () => {
  it('a DJ uploads, types the tracklist, skips the lookup and publishes with the code', async () => {
    const member = await signUpMember(baseUrl, { latitude: -33.8688, longitude: 151.2093 }, 'kbd_dj');
    const files = await smallUpload();
    if (typeof files.mp3 === 'string') throw new Error('smallUpload gives the MP3 as bytes');
    const tab = await signedInPage(browser, member.token, 1280);
    await tab.goto(`${baseUrl}/upload`);
    await tab.getByRole('heading', { name: 'Upload your mix' }).waitFor();

    await tabTo(tab, 'input[name="title"]');
    await tab.keyboard.type('Keyboard mix');
    await tabTo(tab, 'input[type="file"][accept^="audio"]');
    await chooseByKeyboard(tab, files.mp3);
    await tabTo(tab, 'input[type="file"][accept^=".jpg"]');
    await chooseByKeyboard(tab, files.cover);
    await tabTo(tab, 'input[type="range"]');
    for (let step = 0; step < 4; step += 1) await tab.keyboard.press('ArrowRight');
    expect(await tab.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('1.2');
    await tabTo(tab, 'button', 'Done');
    await tab.keyboard.press('Enter');
    await tab.getByRole('img', { name: 'Your cover' }).waitFor();
    await tabTo(tab, 'input[name="genre"]');
    await tab.keyboard.press('ArrowRight');
    expect(await tab.getByRole('radio', { name: 'Deep House' }).isChecked()).toBe(true);
    await tabTo(tab, 'button', 'Upload mix');
    await tab.keyboard.press('Enter');
    await tab.waitForURL(`${baseUrl}/upload/track-list`, { timeout: 60_000 });

    await tab.getByRole('heading', { name: 'Add Tracks (min. 5)' }).waitFor();
    await tabTo(tab, 'input[placeholder="Artist"]');
    for (const [index, row] of TYPED_ROWS.entries()) {
      await tab.keyboard.type(`${row.artist} ${index}`);
      await tab.keyboard.press('Tab');
      await tab.keyboard.type(row.title);
      await tab.keyboard.press('Tab');
    }
    await tabTo(tab, 'button', 'Search tracks');
    await tab.keyboard.press('Enter');
    await tab.getByText("We couldn't find any track data - please check your spelling and try again").waitFor();
    // The lookup's answer is announced above the buttons; Try again, then Skip, are a few stops back.
    await tabTo(tab, 'button', 'Try again', 'Shift+Tab');
    await tab.keyboard.press('Enter');
    await tab.getByRole('button', { name: 'Skip' }).waitFor();
    await tab.keyboard.press('Tab');
    expect(await tab.evaluate(() => document.activeElement?.textContent)).toBe('Skip');
    await tab.keyboard.press('Enter');

    await tab.waitForURL(`${baseUrl}/upload/payment`);
    await tab.getByRole('heading', { name: 'Keyboard mix' }).waitFor();
    await tabTo(tab, 'input[placeholder="Got a BETA code?*"]');
    await tab.keyboard.type('free-mix');
    await tab.keyboard.press('Enter');
    await tab.waitForURL(`${baseUrl}/upload/payment/success-code`);
    await tabTo(tab, 'a[href="/home"]');
    await tab.keyboard.press('Enter');
    await tab.waitForURL(`${baseUrl}/home`);
    await tab.context().close();
  }, 90_000);
});
