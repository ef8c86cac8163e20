// Debian's headless Chromium through playwright-core, launched the one way every browser test does.

import type { Browser } from 'playwright-core';
import { need } from './needs.js';

export const CHROMIUM = '/usr/bin/chromium';
/**
 * A browser test's block: `describe.skipIf(chromium.skip)(\`title${chromium.label}\`, …)`. npm
 * test installs Chromium where it can (as root); elsewhere the block is skipped and named.
 */
export const chromium = need('chromium');

/** Launches Chromium; throws (never skips) when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (chromium.skip) throw new Error(`${CHROMIUM} is needed${chromium.label}`);
  const playwright = await import('playwright-core');
  return playwright.chromium.launch({
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
