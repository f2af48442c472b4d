// Debian's chromium driven by playwright-core (Playwright's own browser downloads do not
// work on these machines). Tests skip with this reason when chromium is not installed.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const chromiumMissing = existsSync(CHROMIUM_PATH)
  ? false
  : `Debian chromium not found at ${CHROMIUM_PATH} (npm run setup -- --for test installs it)`;

// Playwright gives each launch a fresh, empty --user-data-dir of its own and removes it on close.
// The networking flags keep chromium from calling Google's hosts, which this machine refuses.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}
