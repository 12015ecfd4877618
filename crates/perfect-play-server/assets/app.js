// The perfect-play explorer. Everything it shows comes from the JSON API: one GET per
// position, every move listed best first with the position it leads to, so the page follows
// a line without knowing the rules of the game.
'use strict';

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'style') node.setAttribute('style', v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
};

const state = {
  games: [],
  spec: null,
  history: [], // {query, answer} per ply; the last may be {ended: {...}} after a game-ending move
  future: [], // undone plies, for redo
  computer: 'none',
  level: 1,
  busy: false,
};

const settings = {
  get hints() { return localStorage.getItem('pp-hints') !== 'off'; },
  set hints(on) { localStorage.setItem('pp-hints', on ? 'on' : 'off'); },
  get palette() { return localStorage.getItem('pp-palette') || 'standard'; },
  set palette(p) { localStorage.setItem('pp-palette', p); },
};

function apiUrl(game, query) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== null && v !== undefined && v !== '' && v !== false) params.append(k, String(v));
  }
  const q = params.toString();
  return `/api/v1/${encodeURIComponent(game)}${q ? '?' + q : ''}`;
}

async function ask(game, query) {
  const response = await fetch(apiUrl(game, query));
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

// ---------------------------------------------------------------- words

function moveText(move) {
  const m = move.move;
  if (m && typeof m === 'object') {
    if ('component' in m) return `component ${m.component}: ${m.move}`;
    let t = `take ${m.take} from heap ${m.heap}`;
    if (m.leaves && m.leaves.length > 1) t += ` leaving ${m.leaves.join(' and ')}`;
    return t;
  }
  return String(m);
}

function verdict(outcome, remoteness) {
  const n = remoteness === null || remoteness === undefined ? '' :
    ` in ${remoteness} move${remoteness === 1 ? '' : 's'}`;
  switch (outcome) {
    case 'win': return `wins${n}`;
    case 'loss': return `loses${n}`;
    case 'tie': return `ties${n}`;
    default: return 'draws (play goes on forever)';
  }
}

const sideToMove = (ply) => (ply % 2 === 0 ? 'first' : 'second');

// ---------------------------------------------------------------- the form

function paramsOf(spec) {
  const query = { position: $('position').value.trim() };
  for (const p of spec.params) {
    const input = $(`param-${p.name}`);
    if (!input) continue;
    if (p.type === 'boolean') { if (input.checked) query[p.name] = 'true'; }
    else if (input.value.trim() !== '') query[p.name] = input.value.trim();
  }
  return query;
}

// The parameters the form shows: the ones a person sets, not the pictures' extras.
const PICTURE_PARAMS = new Set(['pattern', 'line', 'table', 'values', 'upto']);

function showForm(spec, query) {
  $('game').value = spec.name;
  $('position').value = query.position || '';
  $('position').placeholder = spec.examples.map((e) => e.position).find((p) => p) || '(the start)';
  $('notation').textContent = `Position: ${spec.notation}. CLI: ${spec.command}`;
  const box = $('params');
  box.replaceChildren();
  for (const p of spec.params) {
    if (PICTURE_PARAMS.has(p.name)) continue;
    const id = `param-${p.name}`;
    const input = p.type === 'boolean'
      ? el('input', { type: 'checkbox', id, title: p.help })
      : el('input', { id, size: 10, placeholder: p.default, title: p.help });
    if (p.type === 'boolean') input.checked = query[p.name] === 'true' || query[p.name] === true;
    else input.value = query[p.name] || '';
    box.append(el('label', {}, `${p.name} `, input));
  }
  const examples = $('examples');
  examples.replaceChildren(el('span', { class: 'quiet' }, 'Examples: '));
  for (const ex of spec.examples) {
    const label = Object.entries(ex).filter(([k]) => k !== 'position').map(([k, v]) => `${k}=${v}`);
    const text = `${ex.position || '(start)'}${label.length ? ' ' + label.join(' ') : ''}`;
    examples.append(el('button', { type: 'button', onclick: () => start(spec, { ...ex }) }, text));
  }
}

// ---------------------------------------------------------------- game flow

async function start(spec, query) {
  state.spec = spec;
  state.history = [];
  state.future = [];
  showForm(spec, query);
  await visit(query);
}

async function visit(query) {
  state.busy = true;
  try {
    const answer = await ask(state.spec.name, query);
    state.history.push({ query, answer });
    render();
    await computerTurn();
  } catch (e) {
    $('status').textContent = `Error: ${e.message}`;
    $('status').className = 'over';
  } finally {
    state.busy = false;
  }
}

function current() { return state.history[state.history.length - 1]; }
function ply() { return state.history.length - 1; }

function computerToMove() {
  return state.computer !== 'none' && sideToMove(ply()) === state.computer;
}

function pickMove(moves) {
  // The perfect player takes the first move (fastest win, else a tie or draw, else the
  // slowest loss); at a lower level it does so with probability p, else a random move.
  if (Math.random() < state.level || moves.length === 1) return moves[0];
  return moves[Math.floor(Math.random() * moves.length)];
}

async function computerTurn() {
  const now = current();
  if (!now || now.ended || !computerToMove()) return;
  const moves = now.answer.moves || [];
  if (moves.length === 0) return;
  await new Promise((r) => setTimeout(r, 250));
  if (current() !== now) return; // undone meanwhile
  await play(pickMove(moves), true);
}

async function play(move, byComputer = false) {
  if (!byComputer && state.busy) return;
  state.future = [];
  if (move.position === null || move.position === undefined || !move.query) {
    state.history.push({ ended: { move, by: sideToMove(ply()) } });
    render();
    return;
  }
  await visit(move.query);
}

function undo() {
  if (state.history.length <= 1) return;
  do {
    state.future.push(state.history.pop());
  } while (state.history.length > 1 && computerToMove());
  render();
}

function redo() {
  if (state.future.length === 0) return;
  do {
    state.history.push(state.future.pop());
  } while (state.future.length > 0 && computerToMove());
  render();
}

// ---------------------------------------------------------------- rendering

function render() {
  const now = current();
  if (!now) return;
  const spec = state.spec;
  const shown = now.ended ? state.history[state.history.length - 2] : now;
  $('api-url').textContent = location.origin + apiUrl(spec.name, shown.query);
  renderStatus(now);
  renderBoard(spec, shown.answer, shown.query, !now.ended);
  renderMoves(now.ended ? [] : (now.answer.moves || []));
  renderChart();
  renderLine();
  renderPicture(spec, shown.answer, shown.query);
  $('undo').disabled = state.history.length <= 1;
  $('redo').disabled = state.future.length === 0;
}

function renderStatus(now) {
  const status = $('status');
  status.className = '';
  if (now.ended) {
    const { move, by } = now.ended;
    const who = by === 'first' ? 'The first player' : 'The second player';
    status.textContent = move.outcome === 'win' ? `${who} wins: game over.` :
      move.outcome === 'loss' ? `${who} loses: game over.` : 'A tie: game over.';
    status.className = 'over';
    return;
  }
  const a = now.answer;
  // The answer knows who is to move; the page's own count of plies starts wherever the page
  // was opened (a Connect Four position given in the address is not the game's start).
  const side = a.to_move || sideToMove(ply());
  const mover = side === 'first' ? 'The first player' : 'The second player';
  const you = state.computer === 'none' ? '' :
    computerToMove() ? ' (the computer)' : ' (you)';
  if (!a.moves || a.moves.length === 0) {
    const result = a.outcome === 'loss' ? 'has lost' : a.outcome === 'win' ? 'has won' : 'has tied';
    status.textContent = `${mover}${you} ${result}: game over.`;
    status.className = 'over';
    return;
  }
  status.textContent = settings.hints
    ? `${mover}${you} to move ${verdict(a.outcome, a.remoteness)} with perfect play.`
    : `${mover}${you} to move.`;
}

function strengths(moves) {
  // Fastest win and slowest loss strongest.
  const rs = (o) => moves.filter((m) => m.outcome === o && m.remoteness !== null).map((m) => m.remoteness);
  const span = (xs) => [Math.min(...xs), Math.max(...xs)];
  const [wMin, wMax] = span(rs('win'));
  const [lMin, lMax] = span(rs('loss'));
  return (m) => {
    if (m.remoteness === null || m.remoteness === undefined) return 1;
    if (m.outcome === 'win') return wMax === wMin ? 1 : 1 - 0.6 * (m.remoteness - wMin) / (wMax - wMin);
    if (m.outcome === 'loss') return lMax === lMin ? 1 : 0.4 + 0.6 * (m.remoteness - lMin) / (lMax - lMin);
    return 1;
  };
}

function renderMoves(moves) {
  const list = $('moves');
  list.replaceChildren();
  const strength = strengths(moves);
  const humanTurn = !computerToMove();
  for (const m of moves) {
    const button = el('button', {
      type: 'button',
      class: `move ${m.outcome}`,
      'data-outcome': m.outcome,
      'data-remoteness': m.remoteness === null ? '' : m.remoteness,
      style: `--strength: ${strength(m).toFixed(2)}`,
      title: verdict(m.outcome, m.remoteness),
      onclick: () => humanTurn && !state.busy && play(m),
    }, moveText(m), el('span', { class: 'value' }, verdict(m.outcome, m.remoteness)));
    if (!humanTurn) button.disabled = true;
    list.append(el('li', {}, button));
  }
  if (moves.length === 0) list.append(el('li', { class: 'quiet' }, 'no move'));
}

function renderLine() {
  const list = $('line');
  list.replaceChildren();
  state.history.forEach((h, i) => {
    const next = state.history[i + 1];
    if (!next) return;
    const chosen = next.ended ? next.ended.move :
      (h.answer.moves || []).find((m) => m.position === next.query.position);
    if (chosen) list.append(el('li', {}, `${sideToMove(i)}: ${moveText(chosen)} (${verdict(chosen.outcome, chosen.remoteness)})`));
  });
}

let chart = null;
function renderChart() {
  const plies = [];
  const series = { win: [], tie: [], draw: [], loss: [] };
  state.history.forEach((h, i) => {
    if (h.ended) return;
    plies.push(i);
    for (const k of Object.keys(series)) {
      const o = h.answer.outcome;
      const r = h.answer.remoteness === null || h.answer.remoteness === undefined ? 0 : h.answer.remoteness;
      series[k].push(o === k ? r : null);
    }
  });
  const css = getComputedStyle(document.body);
  const colour = (name) => css.getPropertyValue(`--${name}`).trim();
  const data = [plies, series.win, series.tie, series.draw, series.loss];
  const box = $('chart');
  const width = Math.max(260, box.clientWidth || 320);
  if (typeof uPlot === 'undefined') return;
  if (chart) chart.destroy();
  const point = (name) => ({
    label: name, stroke: colour(name), width: 0,
    points: { show: true, size: 9, fill: colour(name), stroke: colour(name) },
  });
  chart = new uPlot({
    width, height: 180,
    scales: {
      x: { time: false, range: (u, min, max) => [0, Math.max(10, max)] },
      y: { range: (u, min, max) => [0, Math.max(5, max + 1)] },
    },
    axes: [{ label: 'ply' }, { label: 'remoteness' }],
    series: [{ label: 'ply' }, point('win'), point('tie'), point('draw'), point('loss')],
    legend: { show: true },
  }, data, box);
}

// ---------------------------------------------------------------- boards

function tokens(n) {
  const shown = Math.min(n, 40);
  const row = [];
  for (let i = 0; i < shown; i++) row.push(el('span', { class: 'token' }));
  if (n > shown) row.push(el('span', { class: 'token more' }, `+${n - shown}`));
  return row;
}

function heapRows(labels, heaps) {
  return el('div', { class: 'heaps' }, ...heaps.map((h, i) =>
    el('div', { class: 'heap', 'data-heap': i + 1 },
      el('span', { class: 'label' }, `${labels(i)}: ${h}`),
      ...tokens(typeof h === 'number' ? h : 40))));
}

function clickMove(test, unlisted) {
  const now = current();
  if (!now || now.ended || computerToMove() || state.busy) return;
  const move = (now.answer.moves || []).find(test);
  if (move) {
    play(move);
    return;
  }
  // An answer the time budget cut short lists only the moves it decided (moves_complete
  // false); another legal move is still the player's to make.
  const query = now.answer.moves_complete === false && unlisted ? unlisted(now) : null;
  if (query) {
    state.future = [];
    visit(query);
  }
}

function renderBoard(spec, a, query, live) {
  const board = $('board');
  board.replaceChildren();
  switch (spec.view) {
    case 'heaps':
      board.append(heapRows((i) => `heap ${i + 1}`, a.heaps || []));
      if (a.move_set) board.append(el('p', { class: 'quiet' }, `a move takes ${a.move_set.join(', ')}`));
      break;
    case 'coins':
      board.append(heapRows(() => 'pile', a.heaps || []),
        el('p', { class: 'quiet' }, `take ${(a.move_set || []).join(', ')} coins; the last coin wins`));
      break;
    case 'octal':
      board.append(el('p', {}, `code ${a.code}`), heapRows((i) => `heap ${i + 1}`, a.heaps || []));
      break;
    case 'sum': {
      const parts = a.components || [];
      if (parts.some((c) => c.position !== undefined)) {
        // A sum with partizan components: each drawn with its value, then the sum's.
        parts.forEach((c, i) => board.append(el('div', { class: 'component', 'data-component': i + 1 },
          el('p', { class: 'label' }, `${i + 1}. ${c.game}: ${c.value}`),
          c.heaps ? heapRows((j) => `heap ${j + 1}`, c.heaps) : partizanPosition(c.position))));
        board.append(el('p', { class: 'plain' }, `sum = ${a.value}`));
        if (a.thermograph) board.append(thermograph(a.thermograph));
      } else {
        board.append(heapRows((i) => (parts[i] || {}).game, parts.map((c) => c.heap)));
      }
      break;
    }
    case 'row': {
      const piles = a.piles || a.values || a.stones || [];
      board.append(el('div', { class: 'row' }, ...piles.map((p, i) =>
        el('span', {
          class: `pile${i === 0 || i === piles.length - 1 ? ' end' : ''}`,
          onclick: () => clickMove((m) => m.move === (i === 0 ? 'left' : 'right')),
        }, p))));
      break;
    }
    case 'pool': {
      const first = state.history[0].answer;
      const left = new Set(a.pool || []);
      board.append(el('div', { class: 'pool' }, ...(first.pool || []).map((n) =>
        el('span', {
          class: `number${left.has(n) ? '' : ' picked'}`,
          onclick: () => clickMove((m) => m.move === n),
        }, n))));
      const reached = (first.target || 0) - (a.target || 0);
      board.append(el('p', { class: 'total' }, `running total ${reached} of ${first.target}; ${a.target} to go`));
      break;
    }
    case 'tic-tac-toe': {
      const cells = (a.position || '.........').split('');
      board.append(el('div', { class: 'grid', style: 'grid-template-columns: repeat(3, 3rem)' },
        ...cells.map((c, i) => el('button', {
          type: 'button', class: `cell ${c === '.' ? '' : c}`, 'data-square': i + 1,
          onclick: () => live && clickMove((m) => m.move === i + 1),
        }, c === '.' ? '' : c.toUpperCase()))));
      break;
    }
    case 'connect-four': {
      const w = a.width || 7;
      const h = a.height || 6;
      const grid = Array.from({ length: h }, () => Array(w).fill('.'));
      const heights = Array(w).fill(0);
      (a.moves_played || []).forEach((c, i) => {
        const col = c - 1;
        if (col >= 0 && col < w && heights[col] < h) grid[h - 1 - heights[col]++][col] = i % 2 === 0 ? 'x' : 'o';
      });
      const cells = [];
      for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) {
        cells.push(el('button', {
          type: 'button', class: `cell ${grid[r][c] === '.' ? '' : grid[r][c]}`,
          onclick: () => live && clickMove((m) => m.move === c + 1, (now) =>
            // Columns as digits (boards up to 9 wide), this one added, if it has room.
            w <= 9 && heights[c] < h
              ? { ...now.query, position: [...(a.moves_played || []), c + 1].join('') }
              : null),
        }));
      }
      for (let c = 0; c < w; c++) cells.push(el('span', { class: 'colnum' }, c + 1));
      board.append(el('div', { class: 'grid c4', style: `grid-template-columns: repeat(${w}, 2.6rem)` }, ...cells));
      break;
    }
    case 'grid': {
      // Rows from the top; x and o are the players' marks, letters are pieces (capitals the
      // first player's). Columns lettered and rows numbered from the bottom, as moves name
      // squares.
      const [marks, ...rest] = (a.position || '').split(':');
      const rows = marks.split('/');
      const w = Math.max(...rows.map((r) => r.length));
      const owner = (c) => (c === 'x' || (c !== 'o' && c !== c.toLowerCase()) ? 'x' : 'o');
      const cells = [];
      rows.forEach((r, i) => {
        cells.push(el('span', { class: 'colnum' }, rows.length - i));
        r.split('').forEach((c) => cells.push(el('span', { class: `cell ${c === '.' ? '' : owner(c)}` },
          c === '.' ? '' : c.toUpperCase())));
      });
      cells.push(el('span', {}));
      for (let c = 0; c < w; c++) cells.push(el('span', { class: 'colnum' }, String.fromCharCode(97 + c)));
      board.append(el('div', { class: 'grid', style: `grid-template-columns: 1.2rem repeat(${w}, 3rem)` }, ...cells));
      const hand = rest.length > 1 ? ` (in hand: ${rest[0]})` : '';
      board.append(el('p', { class: 'quiet' }, `${spec.name} ${a.variant}: ${a.position}${hand}`));
      break;
    }
    case 'star': {
      const [marks] = (a.position || '').split(':');
      const ns = 'http://www.w3.org/2000/svg';
      const svg = document.createElementNS(ns, 'svg');
      svg.setAttribute('viewBox', '-120 -120 240 240');
      svg.setAttribute('width', '240');
      svg.setAttribute('class', 'star');
      const at = (i) => i === 8 ? [0, 0] : [90 * Math.sin(i * Math.PI / 4), -90 * Math.cos(i * Math.PI / 4)];
      for (let i = 0; i < 8; i++) {
        for (const j of [8, (i + 1) % 8]) {
          const line = document.createElementNS(ns, 'line');
          const [x1, y1] = at(i); const [x2, y2] = at(j);
          Object.entries({ x1, y1, x2, y2, stroke: '#999', 'stroke-width': 3 }).forEach(([k, v]) => line.setAttribute(k, v));
          svg.append(line);
        }
      }
      for (let i = 0; i < 9; i++) {
        const c = document.createElementNS(ns, 'circle');
        const [cx, cy] = at(i);
        const mark = marks[i] || '.';
        Object.entries({ cx, cy, r: 16, class: 'point', fill: mark === 'x' ? '#1f4e9c' : mark === 'o' ? '#b8331e' : 'white' })
          .forEach(([k, v]) => c.setAttribute(k, v));
        svg.append(c);
      }
      board.append(svg, el('p', { class: 'quiet' }, `points 1-8 clockwise from the top, then the centre: ${a.position}`));
      break;
    }
    case 'partizan':
      board.append(partizanPosition(a.position || ''),
        el('p', { class: 'plain' }, `value ${a.value}`));
      if (a.thermograph) board.append(thermograph(a.thermograph));
      if (a.reason) board.append(el('p', { class: 'quiet' }, a.reason));
      break;
    case 'plain':
      board.append(el('p', { class: 'plain' }, a.position || query.position || ''));
      if (a.reason) board.append(el('p', { class: 'quiet' }, a.reason));
      break;
    default:
      board.append(el('pre', {}, query.position || ''));
  }
}

// ---------------------------------------------------------------- partizan games

const SVG = 'http://www.w3.org/2000/svg';

function svgEl(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// A dyadic rational as the answers write it ("-3/4", "2") as a number.
function fraction(text) {
  const [n, d] = String(text).split('/');
  return Number(n) / (d === undefined ? 1 : Number(d));
}

// A partizan position drawn from its notation: rows joined by | (Domineering, Clobber,
// Konane, Amazons: x Left's in blue, o Right's in red, # covered or burnt), a row of toads
// (Left's, blue) and frogs, Hackenbush stalks (l blue, r red, e green edges from the
// ground), pieces of cake (WxH joined by +) to scale; anything else as text.
function partizanPosition(position) {
  if (/^[0-9]+x[0-9]+(\+[0-9]+x[0-9]+)*$/.test(position)) return cakes(position);
  if (/^[lre,]*$/.test(position) && position.length > 0) return stalks(position);
  if (/^[tf.]+$/.test(position) && /[tf]/.test(position)) return gridOf([position], { t: 'x', f: 'o' });
  if (/^[xo.#]+(\|[xo.#]*)*$/.test(position)) return gridOf(position.split('|'), { x: 'x', o: 'o' });
  return el('p', { class: 'plain' }, position || '(empty)');
}

function gridOf(rows, owners) {
  const w = Math.max(...rows.map((r) => r.length));
  const cells = [];
  rows.forEach((r, i) => {
    cells.push(el('span', { class: 'colnum' }, i + 1));
    for (let c = 0; c < w; c++) {
      const mark = r[c] || '#';
      const owner = owners[mark];
      cells.push(el('span', {
        class: `cell${owner ? ` ${owner}` : ''}${mark === '#' ? ' covered' : ''}`,
      }, owner ? mark.toUpperCase() : ''));
    }
  });
  cells.push(el('span', {}));
  for (let c = 0; c < w; c++) cells.push(el('span', { class: 'colnum' }, String.fromCharCode(97 + c)));
  return el('div', { class: 'grid partizan', style: `grid-template-columns: 1.2rem repeat(${w}, 2.4rem)` }, ...cells);
}

const EDGE_COLOURS = { l: '#1f4e9c', r: '#b8331e', e: '#2e8b3a' };

function stalks(position) {
  const list = position.split(',');
  const tall = Math.max(1, ...list.map((s) => s.length));
  const step = 28;
  const width = list.length * 40 + 20;
  const height = tall * step + 30;
  const svg = svgEl('svg', { viewBox: `0 0 ${width} ${height}`, width, class: 'hackenbush' });
  const ground = height - 15;
  svg.append(svgEl('line', { x1: 0, y1: ground, x2: width, y2: ground, stroke: '#6b4f2a', 'stroke-width': 4 }));
  list.forEach((stalk, s) => {
    const x = 30 + s * 40;
    stalk.split('').forEach((edge, i) => {
      svg.append(svgEl('line', {
        x1: x, y1: ground - i * step, x2: x, y2: ground - (i + 1) * step,
        stroke: EDGE_COLOURS[edge], 'stroke-width': 5, class: `edge ${edge}`,
      }, undefined));
      svg.append(svgEl('circle', { cx: x, cy: ground - (i + 1) * step, r: 3.5, fill: '#333' }));
    });
    svg.append(svgEl('text', { x, y: height - 1, 'text-anchor': 'middle', 'font-size': 10 }, s + 1));
  });
  return svg;
}

function cakes(position) {
  const pieces = position.split('+').map((p) => p.split('x').map(Number));
  const unit = Math.max(4, Math.min(24, 240 / Math.max(...pieces.flat())));
  return el('div', { class: 'cakes' }, ...pieces.map(([w, h]) => {
    const svg = svgEl('svg', { width: w * unit + 2, height: h * unit + 2, class: 'cake' });
    svg.append(svgEl('rect', { x: 1, y: 1, width: w * unit, height: h * unit, fill: '#e9c98b', stroke: '#6b4f2a' }));
    for (let i = 1; i < w; i++) svg.append(svgEl('line', { x1: 1 + i * unit, y1: 1, x2: 1 + i * unit, y2: 1 + h * unit, stroke: '#1f4e9c', 'stroke-dasharray': '2 3' }));
    for (let j = 1; j < h; j++) svg.append(svgEl('line', { x1: 1, y1: 1 + j * unit, x2: 1 + w * unit, y2: 1 + j * unit, stroke: '#b8331e', 'stroke-dasharray': '2 3' }));
    return el('span', { class: 'piece', title: `${w}x${h}` }, svg);
  }));
}

// The thermograph from the answer's walls: temperature t upwards from -1, values along the
// bottom with Left's (positive) to the left as Winning Ways draws them; Left's wall blue,
// Right's red, one mast above the temperature.
function thermograph(data) {
  const top = Math.max(fraction(data.temperature), 0) + 1;
  const corners = (wall) => {
    const pieces = wall.map((p) => ({ from: fraction(p.from), slope: p.slope, value: fraction(p.value) }));
    const points = pieces.map((p) => [p.value, p.from]);
    const last = pieces[pieces.length - 1];
    points.push([last.value + last.slope * (top - last.from), top]);
    return points;
  };
  const left = corners(data.left_wall || []);
  const right = corners(data.right_wall || []);
  const values = [...left, ...right].map(([v]) => v).concat([0]);
  const hi = Math.max(...values) + 0.5;
  const lo = Math.min(...values) - 0.5;
  const width = 320;
  const height = 200;
  const x = (v) => 20 + (hi - v) / (hi - lo) * (width - 40);
  const y = (t) => height - 25 - (t + 1) / (top + 1) * (height - 45);
  const svg = svgEl('svg', { viewBox: `0 0 ${width} ${height}`, width, class: 'thermograph' });
  svg.append(svgEl('line', { x1: 10, y1: y(0), x2: width - 10, y2: y(0), stroke: '#999' }));
  svg.append(svgEl('line', { x1: x(0), y1: y(-1), x2: x(0), y2: y(top), stroke: '#ccc', 'stroke-dasharray': '3 3' }));
  const path = (points, colour, name) => svg.append(svgEl('polyline', {
    points: points.map(([v, t]) => `${x(v)},${y(t)}`).join(' '),
    fill: 'none', stroke: colour, 'stroke-width': 2.5, class: `wall ${name}`,
  }));
  path(left, EDGE_COLOURS.l, 'left');
  path(right, EDGE_COLOURS.r, 'right');
  svg.append(svgEl('text', { x: x(0) + 3, y: y(0) - 4, 'font-size': 10, fill: '#666' }, 't = 0'));
  svg.append(svgEl('text', { x: width / 2, y: height - 6, 'text-anchor': 'middle', 'font-size': 11 },
    `mean ${data.mean}, temperature ${data.temperature}`));
  return el('figure', { class: 'thermograph' }, svg,
    el('figcaption', { class: 'quiet' }, 'thermograph: Left\'s wall (blue) and Right\'s (red), values growing to the left'));
}

// ---------------------------------------------------------------- family pictures

async function renderPicture(spec, a, query) {
  const box = $('picture');
  box.dataset.token = String(state.history.length);
  const mine = box.dataset.token;
  try {
    let node = null;
    if (spec.name === 'coins' || spec.name === 'subtraction') node = await strip(spec, a, query);
    else if (spec.name === 'octal') node = await grundyPlot(spec, a, query);
    else if (spec.name === 'stones') node = await heatMap(spec, a, query);
    if (box.dataset.token !== mine) return; // a newer position is being drawn
    box.replaceChildren(...(node ? [node] : []));
  } catch (e) {
    if (box.dataset.token === mine) box.replaceChildren(el('p', { class: 'quiet' }, `(no picture: ${e.message})`));
  }
}

async function strip(spec, a, query) {
  const full = await ask(spec.name, { ...query, pattern: 'true' });
  const values = full.pattern || [];
  const period = full.outcome_period || full.period;
  const here = new Set((a.heaps || []).map(Number));
  const shown = values.slice(0, Math.max(40, Math.min(values.length, Math.max(...here, 0) + 8, 300)));
  const cells = shown.map((v, n) => {
    const cls = [v === 0 ? 'l' : 'w'];
    if (here.has(n)) cls.push('here');
    if (period && n < period.preperiod) cls.push('pre');
    if (period && n >= period.preperiod && (n - period.preperiod) % period.period === 0) cls.push('period-start');
    return el('span', { class: cls.join(' '), title: `pile ${n}: ${v === 0 ? 'loss' : 'win'} for the player to move (value ${v})` }, n);
  });
  const caption = period
    ? `W/L of every pile size (win coloured as a win for the player to move); preperiod ${period.preperiod}, period ${period.period}: each period starts after a gap.`
    : 'W/L of every pile size; no period proven.';
  return el('figure', { class: 'family' }, el('figcaption', { class: 'quiet' }, caption), el('div', { class: 'strip' }, ...cells));
}

async function grundyPlot(spec, a, query) {
  const largest = Math.max(64, ...(a.heaps || []).map(Number).filter(Number.isFinite));
  const full = await ask(spec.name, { ...query, values: 'true', upto: Math.min(largest, 2000) });
  const values = full.values || [];
  const figure = el('figure', { class: 'family' }, el('figcaption', { class: 'quiet' },
    `Grundy values of ${full.code} for heaps 0-${values.length - 1}` +
    (full.period ? `; period ${full.period.period} from heap ${full.period.preperiod} (proven)` : '; no period proven in this range')));
  if (typeof uPlot !== 'undefined') {
    const holder = el('div');
    figure.append(holder);
    setTimeout(() => new uPlot({
      width: Math.max(300, $('stage').clientWidth - 20), height: 200,
      scales: { x: { time: false } },
      axes: [{ label: 'heap' }, { label: 'Grundy value' }],
      series: [{ label: 'heap' }, { label: 'value', stroke: '#5a3e85', width: 0, points: { show: true, size: 4, fill: '#5a3e85' } }],
    }, [values.map((_, i) => i), values], holder), 0);
  }
  return figure;
}

async function heatMap(spec, a, query) {
  const n = (a.piles || []).length;
  if (n === 0 || n > 64) return null;
  const full = await ask(spec.name, { ...query, table: 'true', line: 'true' });
  const table = full.table || [];
  let i = 0; let j = n - 1;
  const path = new Set([`0,${n - 1}`]);
  for (const step of full.best_line || []) {
    if (step === 'left') i++; else j--;
    if (i <= j) path.add(`${i},${j}`);
  }
  const max = Math.max(1, ...table.flat().filter((v) => v !== null).map((v) => Math.abs(Number(v))));
  const rows = table.map((row, r) => el('tr', {}, el('th', {}, r + 1), ...row.map((v, c) => {
    if (v === null) return el('td');
    const x = Number(v) / max;
    const colour = x >= 0 ? 'var(--win)' : 'var(--loss)';
    return el('td', {
      class: path.has(`${r},${c}`) ? 'path' : '',
      style: `background: color-mix(in srgb, ${colour} ${Math.round(Math.abs(x) * 70)}%, white)`,
      title: `piles ${r + 1}-${c + 1}: the player to move ends ${v} ahead`,
    }, v);
  })));
  return el('figure', { class: 'family' },
    el('figcaption', { class: 'quiet' }, 'Margin for the player to move on every interval (row: first pile, column: last); the optimal line is outlined.'),
    el('table', { class: 'heat' }, el('tr', {}, el('th'), ...table.map((_, c) => el('th', {}, c + 1))), ...rows));
}

// ---------------------------------------------------------------- start

async function main() {
  document.body.classList.toggle('safe', settings.palette === 'safe');
  document.body.classList.toggle('no-hints', !settings.hints);
  $('hints').checked = settings.hints;
  $('palette').value = settings.palette;
  $('hints').addEventListener('change', () => {
    settings.hints = $('hints').checked;
    document.body.classList.toggle('no-hints', !settings.hints);
    render();
  });
  $('palette').addEventListener('change', () => {
    settings.palette = $('palette').value;
    document.body.classList.toggle('safe', settings.palette === 'safe');
    render();
  });
  $('computer').addEventListener('change', async () => {
    state.computer = $('computer').value;
    render();
    await computerTurn();
  });
  $('level').addEventListener('change', () => { state.level = Number($('level').value); });
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('restart').addEventListener('click', () => state.history.length && start(state.spec, state.history[0].query));
  $('game').addEventListener('change', () => {
    const spec = state.games.find((g) => g.name === $('game').value);
    start(spec, { ...spec.examples[0] });
  });
  $('ask').addEventListener('submit', (e) => {
    e.preventDefault();
    const spec = state.games.find((g) => g.name === $('game').value);
    start(spec, paramsOf(spec));
  });
  const { games } = await (await fetch('/api/v1/games')).json();
  state.games = games;
  for (const g of games) $('game').append(el('option', { value: g.name }, g.title));
  const wanted = new URLSearchParams(location.search);
  const spec = games.find((g) => g.name === wanted.get('game')) || games[0];
  const query = wanted.has('position') ? Object.fromEntries([...wanted].filter(([k]) => k !== 'game')) : { ...spec.examples[0] };
  await start(spec, query);
}

// The page's state, for the end-to-end tests and the curious (read it, don't write it).
window.perfectPlay = { state };

main();
