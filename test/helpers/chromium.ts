import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, driven by playwright-core (which downloads no browser of its own). The
 * browser suites need it installed (`apt-get install -y chromium`); without it they are
 * skipped with one line saying so, rather than failing on every machine without a browser.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

let warned = false;

/** Whether Chromium is installed; says once per file, when it is not, that the suite is skipped. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (!warned) {
    warned = true;
    console.warn(`browser suite skipped: ${CHROMIUM_PATH} not found (apt-get install -y chromium)`);
  }
  return false;
}

/** A headless Chromium; the caller closes it (one browser per test file). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}
