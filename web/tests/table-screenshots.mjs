// Regenerate the table screenshots of docs/client.md (issue 12):
//   docs/table-desktop.png      two-player game on a desktop: coordinates on, an attack's result
//                               badge, a 标记 on a hidden piece, the tally, the last five moves
//   docs/table-phone.png        the same kind of moment on a phone (390×844)
//   docs/table-four-phone.png   the four-player board on a phone, zoomed on your own arm, with
//                               coordinates and a mark
//   node table-screenshots.mjs [docs-dir]        (JUNQI_BIN as for the tests; JUNQI_WEB_DIR to
//                                                 serve a working copy of the client)
import path from 'node:path';
import { startServer, ROOT } from './lib/server.mjs';
import { launchScreen } from './lib/browser.mjs';

const outDir = process.argv[2] || path.join(ROOT, 'docs');
const server = await startServer();

async function game(page, board) {
  await page.goto(server.url + '/');
  await page.waitForSelector('#play-computer-2');
  await page.evaluate(async (b) => {
    localStorage.setItem('junqi.coords', '1');
    const r = await window.junqi.api('POST', '/api/play-computer', { board: b });
    window.junqi.saveSeatToken(r.table.id, r.token);
    location.hash = `#/table/${r.table.id}`;
  }, board);
  await page.waitForSelector('#btn-submit:not([disabled])');
  await page.click('#btn-submit');
  await page.waitForSelector('#status[data-status="playing"].mine', { timeout: 30000 });
}

async function tap(page, sq, touch) {
  const loc = page.locator(`.hits [data-sq="${sq}"]`);
  await loc.scrollIntoViewIfNeeded();
  const r = await loc.boundingBox();
  if (touch) await page.touchscreen.tap(r.x + r.width / 2, r.y + r.height / 2);
  else await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
}

/** Mark a hidden piece of `seat` through the menu (menu closed afterwards). */
async function mark(page, seat, guess, pick = (ps) => ps[0]) {
  const sq = await page.evaluate((s) => window.junqi.current.s.observation.pieces.filter((p) => p.seat === s && !p.role).map((p) => p.at), seat);
  const at = pick(sq);
  await page.evaluate(([a, g]) => { window.junqi.current.marks.set(a, g); window.junqi.current.renderBoard(); }, [at, guess]);
  return at;
}

/** Play a few quiet moves, then attack a7 from a6's file and shoot while the badge shows. */
async function attackShot(page, out, touch) {
  await mark(page, 1, 'bomb', (ps) => ps.find((s) => s === 'c8') || ps[0]);
  await mark(page, 1, 'landmine', (ps) => ps.find((s) => s === 'b12') || ps[1]);
  await tap(page, 'a6', touch);
  await tap(page, 'a7', touch);
  await page.waitForFunction(() => document.querySelector('svg.board').dataset.lastMove === 'a6-a7' && document.querySelector('svg.board .badge'), null, { timeout: 10000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(350); // the badge's pop-in; it stays a second before the next ply
  await page.screenshot({ path: out, fullPage: !!touch });
  console.log(`wrote ${out}`);
}

try {
  {
    const b = await launchScreen('desktop');
    const page = await b.context.newPage();
    await game(page, 'two_player');
    // Two quiet moves first, so that the log and the last five moves have lines.
    for (const a of ['c6-c7', null]) {
      if (!a) break;
      const legal = await page.evaluate(() => window.junqi.current.s.observation.legal_actions);
      const move = legal.find((x) => /^e[2-5]-e[2-5]$/.test(x)) || legal.find((x) => !x.startsWith('a6'));
      await page.evaluate((m) => window.junqi.current.act(m), move);
      await page.waitForFunction(() => document.querySelector('#status.mine') && !window.junqi.current.queue.busy, null, { timeout: 15000 });
    }
    await attackShot(page, path.join(outDir, 'table-desktop.png'), false);
    await b.close();
  }
  {
    const b = await launchScreen('phone');
    const page = await b.context.newPage();
    await game(page, 'two_player');
    await attackShot(page, path.join(outDir, 'table-phone.png'), true);
    await b.close();
  }
  {
    const b = await launchScreen('phone');
    const page = await b.context.newPage();
    await game(page, 'four_player');
    await mark(page, 1, 'marshal', (ps) => ps.find((s) => s === 'l7') || ps[0]);
    await mark(page, 3, 'bomb', (ps) => ps.find((s) => s === 'f7') || ps[0]);
    await page.evaluate(() => window.scrollTo(0, 0));
    const out = path.join(outDir, 'table-four-phone.png');
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
    await b.close();
  }
} finally {
  await server.stop();
}
