import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { sineMp3 } from '../../../api/test/support/audio';
import { solidImage } from '../../../api/test/support/images';

const require = createRequire(import.meta.url);
/** axe-core's browser build, injected into pages under test. */
export const AXE_SCRIPT = require.resolve('axe-core/axe.min.js');

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
  context.setDefaultTimeout(20_000);
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

/** Serious and critical WCAG 2.1 A/AA violations axe-core finds on the page as it is, as "rule: target" lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SCRIPT });
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => JSON.stringify(node.target)),
    }));
  });
  return found
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.targets.map((target) => `${violation.id}: ${target}`));
}
