// Regenerate docs/player-page.png: a registered player's page after a few games against the
// computer (resigned at once: the tables are asked for no resignation window).
//   node player-screenshot.mjs [out.png]       (JUNQI_BIN as for the tests)
import path from 'node:path';
import { startServer, ROOT } from './lib/server.mjs';
import { launch } from './lib/browser.mjs';

const out = process.argv[2] || path.join(ROOT, 'docs/player-page.png');
const server = await startServer();
const { context, close } = await launch();
try {
  const page = await context.newPage();
  page.on('dialog', (d) => d.accept());
  await page.setViewportSize({ width: 1000, height: 640 });
  await page.goto(server.url + '/#/account');
  await page.fill('#register-form [name=name]', 'alice');
  await page.fill('#register-form [name=password]', 'a long password');
  await page.fill('#register-form [name=password2]', 'a long password');
  await page.click('#register-submit');
  await page.waitForSelector('#me-link[data-guest="false"]');
  for (const [mode, bot] of [['dark', 'random'], ['flip', 'heuristic'], ['dark', 'heuristic']]) {
    await page.evaluate(async ({ mode, bot }) => {
      const r = await window.junqi.api('POST', '/api/play-computer', { board: 'two_player', mode, bot, resign_after_seconds: 0 });
      window.junqi.saveSeatToken(r.table.id, r.token);
      location.hash = `#/table/${r.table.id}`;
    }, { mode, bot });
    if (mode !== 'flip') {
      await page.waitForSelector('#btn-submit:not([disabled])');
      await page.click('#btn-submit');
    }
    await page.waitForSelector('#btn-resign');
    await page.click('#btn-resign');
    await page.waitForSelector('#outcome');
  }
  await page.click('#me-link');
  const ready = async () => (await page.locator('#ratings tr[data-category="two_player/flip"]').count())
    && (await page.locator('#ratings tr[data-category="two_player/dark"] td:last-child').textContent()) === '2';
  for (let i = 0; i < 40 && !(await ready()); i++) {
    await new Promise((r) => setTimeout(r, 250));
    await page.click('#player-refresh');
  }
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await close();
  await server.stop();
}
