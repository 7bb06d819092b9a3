// Regenerate the screenshots of docs/client.md for the lobby, the leaderboard and the help page,
// at desktop (1280×800) and phone (390×844) sizes: docs/lobby-desktop.png, docs/lobby-phone.png,
// docs/leaderboard-desktop.png, docs/leaderboard-phone.png, docs/help-desktop.png,
// docs/help-phone.png and docs/rule-tip-phone.png. A few quick games against the computer
// (resigned at once) put players on the leaderboard first.
//   node lobby-screenshots.mjs [out-dir]       (JUNQI_BIN as for the tests)
import path from 'node:path';
import { startServer, ROOT } from './lib/server.mjs';
import { launch } from './lib/browser.mjs';

const outDir = process.argv[2] || path.join(ROOT, 'docs');
const server = await startServer();
const { context, close } = await launch();
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** Register `name` in a fresh page and lose (or win: resign the other way) `games` games. */
async function playerWithGames(name, games) {
  const page = await context.newPage();
  page.on('dialog', (d) => d.accept());
  await page.goto(server.url + '/#/account');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.fill('#register-form [name=name]', name);
  await page.fill('#register-form [name=password]', 'a long password');
  await page.fill('#register-form [name=password2]', 'a long password');
  await page.click('#register-submit');
  await page.waitForSelector('#me-link[data-guest="false"]');
  for (const [mode, bot] of games) {
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
  await page.close();
}

try {
  await playerWithGames('小明', [['dark', 'random'], ['dark', 'heuristic']]);
  await playerWithGames('alice', [['dark', 'heuristic']]);
  // The ratings are written just after each game.
  await new Promise((r) => setTimeout(r, 1500));
  const page = await context.newPage();
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.goto(server.url + '/#/');
    await page.waitForSelector('#vs-computer');
    await page.screenshot({ path: path.join(outDir, `lobby-${size}.png`) });
    await page.goto(server.url + '/#/leaderboard/two_player/dark');
    await page.waitForSelector('#leaderboard');
    await page.screenshot({ path: path.join(outDir, `leaderboard-${size}.png`) });
    await page.goto(server.url + '/#/help/combat');
    await page.waitForSelector('#combat-table');
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(outDir, `help-${size}.png`) });
  }
  // A house-rule tip, tapped open on a phone.
  await page.goto(server.url + '/#/');
  await page.evaluate(() => { document.querySelector('#create').open = true; });
  await page.locator('[data-tip="bomb_flies"] .rule-name').scrollIntoViewIfNeeded();
  await page.click('[data-tip="bomb_flies"] .rule-name');
  await page.waitForSelector('#tip-bomb_flies:not([hidden])');
  await page.screenshot({ path: path.join(outDir, 'rule-tip-phone.png') });
  console.log(`wrote the screenshots to ${outDir}`);
} finally {
  await close();
  await server.stop();
}
