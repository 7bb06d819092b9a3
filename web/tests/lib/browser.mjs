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
