// Helpers for driving a page of the client: clicks on board squares, moves, deployment.
import assert from 'node:assert/strict';

export function helpers(page) {
  async function box(sel) {
    const b = await page.locator(sel).first().boundingBox();
    assert.ok(b, `no box for ${sel}`);
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }
  async function clickSquare(sq) {
    const { x, y } = await box(`.hits [data-sq="${sq}"]`);
    await page.mouse.click(x, y);
  }
  /** Make one move by clicking: try own pieces until one shows legal destinations. */
  async function playOneMove(seat) {
    await page.waitForSelector('.status-line.mine', { timeout: 30000 });
    // Frames still being played (a resume after a reconnect replays the missed ones, each move
    // gliding) redraw the board: a click in between loses its selection. Move on a still board.
    await page.waitForFunction(() => {
      const q = window.junqi.current && window.junqi.current.queue;
      return !q || (!q.busy && q.length === 0);
    }, null, { timeout: 30000 });
    const squares = await page.$$eval(`.piece[data-seat="${seat}"]`, (els) => els.map((e) => e.dataset.at));
    for (const sq of squares) {
      await clickSquare(sq);
      const targets = await page.$$eval('[data-target]', (els) => els.map((e) => e.dataset.target));
      if (targets.length) {
        const before = await page.locator('#log li').count();
        await clickSquare(targets[0]);
        await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before, { timeout: 10000 });
        return { from: sq, to: targets[0] };
      }
    }
    throw new Error('no piece with a legal move');
  }
  /** Submit the proposed (random or last) layout. */
  async function deploy() {
    await page.waitForSelector('#btn-submit:not([disabled])', { timeout: 30000 });
    await page.click('#btn-submit');
  }
  return { box, clickSquare, playOneMove, deploy };
}

/** A fresh visit in Chinese (no remembered choice, language or session): a reload, not a hash
 * change, so that the page starts again without the session. */
export async function freshVisit(page, url, hash = '#/') {
  await page.goto(`${url}/${hash}`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
}

/** Whether the page fits its width (nothing scrolls sideways). */
export async function noHorizontalOverflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

/** A table's summary as the server gives it (GET /api/tables/{id}). */
export async function tableSummary(url, id) {
  return (await fetch(`${url}/api/tables/${id}`)).json();
}
