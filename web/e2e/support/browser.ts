import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (never a downloaded one). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * How long one browser step (a navigation, a locator's wait) may take before the journey fails naming what it waited
 * for: generous for a machine running two whole suites at once, where loading the app has taken over 10 s; a step that
 * passes never waits it out.
 */
export const BROWSER_STEP_TIMEOUT_MS = 30_000;
