// Debian's headless Chromium through playwright-core, launched the one way every browser test does.

import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const installed = existsSync(CHROMIUM);
/**
 * Whether the browser tests run: where Chromium is installed, and always in CI (CI=true), where
 * a missing Chromium fails them rather than skipping the proof they give.
 */
export const browserTests = installed || process.env.CI === 'true';
/** Appended to a describe's name when the browser tests are skipped. */
export const SKIP_WITHOUT_CHROMIUM = browserTests
  ? ''
  : ` (skipped: ${CHROMIUM} is missing; apt-get install chromium — .ci/run does)`;

/** Launches Chromium; throws (never skips) when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!installed) throw new Error(`${CHROMIUM} is needed (apt-get install chromium)`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
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
}
