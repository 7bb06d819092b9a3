// Launch the system Chromium (Debian `chromium`) through playwright-core: no browser download.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export async function launch() {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'junqi-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  const close = async () => {
    await context.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
  };
  return { context, close };
}

/**
 * A browser with one context of the given screen: `desktop` (1280×800) or `phone` (390×844, a
 * touch screen with a mobile viewport). `options` go to newContext (e.g. reducedMotion).
 */
export async function launchScreen(screen, options = {}) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const screens = {
    desktop: { viewport: { width: 1280, height: 800 } },
    phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  };
  const context = await browser.newContext({ ...screens[screen], ...options });
  return { browser, context, close: () => browser.close().catch(() => {}) };
}
