// End-to-end test of the explorer page in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core). Run by crates/perfect-play-cli/tests/e2e.rs, which starts the
// server and passes its URL:  node e2e/explorer.mjs http://127.0.0.1:PORT SCREENSHOT_DIR
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';

const [base, shots = 'e2e/screenshots'] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });

// A fresh profile every run (playwright passes it as --user-data-dir).
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'pp-chromium-')), {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 900 },
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--no-first-run',
  ],
});
const page = context.pages()[0] || await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));

const api = async (path) => (await fetch(base + path)).json();
const settled = () => page.waitForFunction(() => {
  const s = window.perfectPlay && window.perfectPlay.state;
  return s && !s.busy && s.history.length > 0;
});
const open = async (query) => {
  await page.goto(`${base}/?${query}`);
  await settled();
  await page.waitForSelector('#moves li');
};

// 1. Nim 3 4 5 against the perfect player, to the end. The person (this script) always plays
// the worst listed move; the computer must never leave a winning position for a losing one.
await open('game=nim&position=3+4+5');
await page.selectOption('#computer', 'second');
let guard = 0;
for (;;) {
  await settled();
  const over = await page.evaluate(() => {
    const s = window.perfectPlay.state;
    const now = s.history[s.history.length - 1];
    return Boolean(now.ended) || (now.answer.moves || []).length === 0;
  });
  if (over) break;
  const buttons = page.locator('#moves button:not([disabled])');
  const count = await buttons.count();
  if (count === 0) { await page.waitForTimeout(100); continue; }
  await buttons.nth(count - 1).click();
  await page.waitForTimeout(50);
  assert.ok(guard++ < 40, 'the game did not end');
}
const history = await page.evaluate(() => window.perfectPlay.state.history.map((h) => (
  h.ended ? { ended: h.ended.move.outcome } : { outcome: h.answer.outcome, position: h.query.position })));
assert.ok(history.length > 2, 'no moves were played');
for (let ply = 1; ply < history.length - 1; ply += 2) {
  // Odd plies: the computer (second) to move.
  const before = history[ply];
  const after = history[ply + 1];
  if (before.outcome === 'win') {
    const kept = after.ended ? after.ended === 'win' : after.outcome === 'loss';
    assert.ok(kept, `the computer left a winning position at ply ${ply}: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
  }
}
const status = await page.textContent('#status');
assert.match(status, /game over/i);
assert.match(status, /first player \(you\) has lost/i);
await page.screenshot({ path: join(shots, 'nim-played.png'), fullPage: true });

// 2. Move colours against the API, for both palettes.
await page.selectOption('#computer', 'none');
await open('game=nim&position=3+4+5');
const expected = await api('/api/v1/nim?position=3+4+5');
const shown = await page.$$eval('#moves button', (bs) => bs.map((b) => ({
  outcome: b.dataset.outcome, remoteness: b.dataset.remoteness, text: b.firstChild.textContent,
  background: getComputedStyle(b).backgroundColor,
})));
assert.equal(shown.length, expected.moves.length);
expected.moves.forEach((m, i) => {
  assert.equal(shown[i].outcome, m.outcome, `move ${i}`);
  assert.equal(shown[i].remoteness, String(m.remoteness), `move ${i}`);
});
const winColour = shown.find((b) => b.outcome === 'win').background;
const lossColour = shown.find((b) => b.outcome === 'loss').background;
assert.notEqual(winColour, lossColour, 'wins and losses look the same');
// rgb(r, g, b) or color(srgb r g b): green dominates a win's background.
const channels = (c) => (c.match(/[\d.]+/g) || []).map(Number).slice(-3);
const [r, g, b] = channels(winColour);
assert.ok(g > r && g > b, `a win is not green: ${winColour}`);
const [lr, lg, lb] = channels(lossColour);
assert.ok(lr > lg && lr > lb, `a loss is not red: ${lossColour}`);
await page.selectOption('#palette', 'safe');
const safeWin = await page.$eval('#moves button.win', (b) => getComputedStyle(b).backgroundColor);
assert.notEqual(safeWin, winColour, 'the colour-blind palette changes nothing');
// Hints off: no values shown, and the setting survives a reload.
await page.uncheck('#hints');
assert.equal(await page.$eval('#moves .value', (v) => getComputedStyle(v).display), 'none');
await open('game=nim&position=3+4+5');
assert.equal(await page.isChecked('#hints'), false, 'hints did not stay off');
await page.check('#hints');
await page.selectOption('#palette', 'standard');

// 3. Undo and redo.
await page.locator('#moves button').first().click();
await settled();
assert.equal(await page.evaluate(() => window.perfectPlay.state.history.length), 2);
await page.click('#undo');
assert.equal(await page.evaluate(() => window.perfectPlay.state.history.length), 1);
await page.click('#redo');
assert.equal(await page.evaluate(() => window.perfectPlay.state.history.length), 2);

// 4. A screenshot of every family's view.
// A 10 x 6 position of c4's verified set (70 bits: searched on 128-bit words): the first
// player wins in 5.
const tenBySix = '1,10,2,10,5,1,2,1,1,5,9,2,9,1,9,7,5,9,2,10,5,9,10,5,8,3,5,9,8,2,8,1,10,3,6,2,10,8,4,7,7';
const views = [
  ['nim', 'game=nim&position=3+4+5'],
  ['tic-tac-toe', 'game=tic-tac-toe&position=x...o....'],
  ['coins-strip', 'game=coins&position=30+2+5'],
  ['subtraction-strip', 'game=subtraction&position=20&moves=2,5,6'],
  ['stones-heat-map', 'game=stones&position=3+9+1+2+7+4'],
  ['octal-grundy-plot', 'game=octal&position=0.07+30'],
  ['can-i-win', 'game=can-i-win&position=10+40'],
  ['sum', 'game=sum&position=0.77:10+grundy:12+nim:5'],
  ['connect-four', 'game=connect-four&position=1223&width=4&height=4'],
  ['connect-four-7x6', 'game=connect-four&position=752276321466322433217754651'],
  ['connect-four-10x6', `game=connect-four&width=10&height=6&position=${tenBySix}`],
  ['dodgem', 'game=dodgem'],
  ['mu-torere', 'game=mu-torere'],
  ['quixo', 'game=quixo&position=x../..o/...:x'],
  ['teeko', 'game=teeko&size=4&pieces=3'],
  ['dobutsu', 'game=dobutsu&animals=c'],
  ['hexapawn', 'game=hexapawn'],
  ['domineering', 'game=domineering&position=...|...|..%23'],
  ['clobber', 'game=clobber&position=xox|ox.'],
  ['toads-and-frogs', 'game=toads-and-frogs&position=tt.ff'],
  ['hackenbush', 'game=hackenbush&position=lrr,rl,e'],
  ['cutcake', 'game=cutcake&position=4x3%2B2x1'],
  ['sum-partizan', 'game=sum&position=domineering:..%7C..+clobber:xo+nim:2'],
];
for (const [name, query] of views) {
  await open(query);
  if (['coins-strip', 'subtraction-strip'].includes(name)) await page.waitForSelector('.strip span');
  if (name === 'stones-heat-map') await page.waitForSelector('table.heat td.path');
  if (name === 'octal-grundy-plot') await page.waitForSelector('#picture .uplot');
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

// 5. Connect Four 7 x 6 from the empty board: read from the shipped opening book at once,
// seven columns each with its value, and the reply to a move too.
await open('game=connect-four');
assert.equal(await page.locator('#moves button').count(), 7, 'seven columns');
assert.equal(await page.evaluate(() => window.perfectPlay.state.history.at(-1).answer.method), 'book');
const played = Date.now();
await page.locator('#moves button').first().click();
await settled();
assert.equal(await page.evaluate(() => window.perfectPlay.state.history.at(-1).answer.method), 'book');
assert.ok(Date.now() - played < 2000, `a move from the start answered in ${Date.now() - played} ms`);

// A board past 64 bits drawn whole: ten columns of six, its 41 discs, the search's answer.
await open(`game=connect-four&width=10&height=6&position=${tenBySix}`);
assert.equal(await page.locator('#board .grid.c4 button.cell').count(), 60, 'ten columns of six');
assert.equal(await page.locator('#board .grid.c4 .cell.x').count(), 21, "the first player's discs");
assert.equal(await page.locator('#board .grid.c4 .cell.o').count(), 20, "the second player's discs");
const tenBySixAnswer = await page.evaluate(() => window.perfectPlay.state.history.at(-1).answer);
assert.deepEqual([tenBySixAnswer.method, tenBySixAnswer.outcome, tenBySixAnswer.remoteness], ['search', 'win', 5]);

// 6. Partizan games: the board drawn from the position, the thermograph from the walls.
await open('game=domineering&position=..|..');
assert.equal(await page.locator('#board .grid.partizan .cell').count(), 4, 'the 2 x 2 board');
assert.equal(await page.locator('#board svg.thermograph polyline.wall').count(), 2, 'both walls');
// +-1: Left's wall stands at 1 and Right's at -1 until they meet at temperature 1.
const walls = await page.$$eval('#board polyline.wall', (ps) => ps.map((p) => p.getAttribute('points')));
assert.notEqual(walls[0], walls[1]);
await open('game=hackenbush&position=lrr,rl,e');
assert.equal(await page.locator('#board svg.hackenbush line.edge').count(), 6, 'every edge drawn');
assert.equal(await page.locator('#board svg.hackenbush line.edge.e').count(), 1, 'the green edge');
await open('game=cutcake&position=4x3%2B2x1');
assert.equal(await page.locator('#board .cakes svg.cake').count(), 2, 'both pieces');
await open('game=sum&position=domineering:..%7C..+clobber:xo+nim:2');
assert.equal(await page.locator('#board .component').count(), 3, 'each component');
assert.match(await page.locator('#board').innerText(), /sum = \+-1\*3/);
// Playing a move in the sum hands the turn to Right.
await page.locator('#moves button').first().click();
await settled();
assert.equal(await page.evaluate(() => window.perfectPlay.state.history.at(-1).query.to_move), 'right');

await context.close();
assert.deepEqual(errors, [], 'the page threw');
console.log(`e2e: ok (${views.length + 1} screenshots in ${shots})`);
