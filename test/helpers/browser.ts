// Debian's headless Chromium through playwright-core, launched the one way every browser test does.

import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/** Appended to a describe's name when Chromium is missing. */
export const SKIP_WITHOUT_CHROMIUM = hasChromium
  ? ''
  : ` (skipped: ${CHROMIUM} is missing; apt-get install chromium — .ci/run does)`;

/** Launches Chromium; throws (never skips) when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!hasChromium) throw new Error(`${CHROMIUM} is needed (apt-get install chromium)`);
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
