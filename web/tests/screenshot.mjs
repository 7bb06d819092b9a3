// Regenerate docs/screenshot.png: a two-player game against the computer in progress, played by
// clicks (attacks and forward moves preferred), with a piece selected to show its destinations.
//   node screenshot.mjs [out.png]       (JUNQI_BIN as for the tests)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, ROOT } from './lib/server.mjs';
import { launch } from './lib/browser.mjs';

const out = process.argv[2] || path.join(ROOT, 'docs/screenshot.png');
const plies = Number(process.env.PLIES || 10);
const server = await startServer();
const { context, close } = await launch();
try {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(server.url + '/');
  await page.click('#play-computer-2');
  await page.waitForSelector('#btn-submit:not([disabled])');
  await page.click('#btn-submit');
  await page.waitForSelector('#status[data-status="playing"]');
  const click = async (sq) => {
    const b = await page.locator(`.hits [data-sq="${sq}"]`).boundingBox();
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  };
  const rankOf = (sq) => Number(sq.slice(1));
  // Play `plies` moves, then go on (at most 60 more) until the computer's last move was an
  // attack, so that the picture shows a combat result.
  for (let i = 0; i < plies + 60; i++) {
    await page.waitForSelector('.status-line.mine', { timeout: 30000 });
    if (i >= plies && (await page.evaluate(() => !!window.junqi.current.s.lastMove?.result))) break;
    const { legal, enemy } = await page.evaluate(() => {
      const o = window.junqi.current.s.observation;
      return { legal: o.legal_actions, enemy: o.pieces.filter((p) => p.seat === 1).map((p) => p.at) };
    });
    if (!legal.length || (await page.locator('#outcome').count())) break;
    const score = (a) => {
      const [from, to] = a.split('-');
      return (enemy.includes(to) ? 10 : 0) + (rankOf(to) - rankOf(from)) + Math.random();
    };
    const best = legal.slice().sort((x, y) => score(y) - score(x))[0];
    const [from, to] = best.split('-');
    await click(from);
    await click(to);
    await page.waitForFunction(() => !document.querySelector('.status-line.mine'), null, { timeout: 10000 }).catch(() => {});
  }
  await page.waitForSelector('.status-line.mine', { timeout: 30000 });
  const legal = await page.evaluate(() => window.junqi.current.s.observation.legal_actions);
  const counts = {};
  for (const a of legal) counts[a.split('-')[0]] = (counts[a.split('-')[0]] || 0) + 1;
  const from = Object.entries(counts).sort((a, b) => b[1] - a[1])[0][0];
  await click(from);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await close();
  await server.stop();
}
