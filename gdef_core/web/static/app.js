// The board page of `gdef-run --web`: draws the position the JSON API returns and turns clicks
// into moves. No build step and no libraries: the file is served as it is (docs/web.md).
"use strict";

const AGENTS = ["human", "random", "greedy", "mcts"];
const COMPUTER_PAUSE_MS = 250; // lets a person see each computer move
const CHOICE_LIMIT = 12; // a choice between more moves than this is left to the list
const DROP_CLICK_MS = 300; // a click this soon after a drop belongs to the drop
const HEX_WIDTH = 0.866; // a pointy-top hexagon's width over its height (style.css's --hex-width)
const MAX_DRAWN = 100; // columns and rows drawn (10,000 squares): a bigger board is drawn in part, around the last move
const MOVE_NOW_RETRY_MS = 100; // "Move now" before the search has started: ask again after this
const THINKING_POLL_MS = 250; // a computer move another page asked for: look again after this

const $ = (id) => document.getElementById(id);
const page = {
  game: null,       // /api/game
  state: null,      // /api/state
  legal: null,      // /api/legal for the position (up to its limit)
  look: null,       // how the game is drawn: lookOf(game.presentation)
  flipped: false,   // the board turned half a turn (the other player's view)
  tool: "auto",     // "auto" (match legal moves), an object's name, or "clear"
  selection: [],    // squares clicked in auto mode, [[x, y], ...]
  candidates: null, // legal moves touching every selected square
  cells: new Map(), // "x,y" -> the square's element
  shown: new Map(), // "x,y" -> the object drawn there
  shownCounts: new Map(), // "x,y" -> the count drawn there (squares that count)
  queue: Promise.resolve(), // actions run one after another, in the order of the clicks
  computerStopped: false, // a computer move failed: wait for the person
  thinking: false,  // a computer player is choosing its move (POST /api/computer unanswered)
  scriptSource: null, // the open move script {name, text, path}, opened again after a reload
  bannerClosed: false, // the result's banner was closed to look at the final position
  droppedAt: 0,      // when a dragged piece was last dropped (Date.now())
  debugged: null,    // VS Code: the position a gdef debug session is stopped at (it replaces the game's on the board)
  view: { x: 0, y: 0 }, // the first column and row drawn of a board bigger than MAX_DRAWN (a million squares would stall the page)
};

// ------------------------------------------------------------------ the API

// Every action waits for the one before it: a quick second click is played, not lost.
function enqueue(action) {
  page.queue = page.queue.then(action).catch(failed);
  return page.queue;
}

// Inside VS Code's webview (the "Show Board" panel) the page has no network: its requests go
// to the extension, which passes them on to its gdef-run --web child (docs/editors.md).
const host = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : null;
const waiting = new Map(); // request number -> its answer's resolve
let asked = 0;

function ask(message) {
  return new Promise((resolve) => {
    asked += 1;
    waiting.set(asked, resolve);
    host.postMessage({ ...message, id: asked });
  });
}

// The run's secret token, which only the address gdef-run printed carries: the API needs it.
const TOKEN = new URLSearchParams(location.search).get("token") || "";

async function api(path, body) {
  let status;
  let data;
  if (host) {
    ({ status, data } = await ask({ type: "api", path, body }));
  } else {
    const options = body === undefined ? { headers: { "X-Gdef-Token": TOKEN } } : {
      method: "POST", headers: { "Content-Type": "application/json", "X-Gdef-Token": TOKEN }, body: JSON.stringify(body),
    };
    const response = await fetch(path, options);
    status = response.status;
    try {
      data = await response.json();
    } catch (error) {
      throw new Error(`${path}: the server answered ${response.status} without JSON`);
    }
  }
  if (status < 200 || status > 299) throw new Error(data.error || `${path}: ${status}`);
  return data;
}

async function refresh() {
  const before = page.state;
  page.state = await api("/api/state");
  if (page.state.thinking && !page.thinking) page.state = await othersThinking();
  if (!page.state.over || !before || !before.over) page.bannerClosed = false;
  page.legal = await api("/api/legal");
  page.selection = [];
  page.candidates = null;
  render();
  scheduleComputer();
}

// ------------------------------------------------------------------ drawing

function objectIndex(name) {
  return page.game.objects.indexOf(name);
}

// What the game declares about its looks (docs/web.md), with the defaults of a game that
// declares nothing: a checkered board, numbers as coordinates, discs lettered with the names.
function lookOf(game) {
  const declared = game.presentation || {};
  const numbers = (count) => [...Array(count).keys()].map(String);
  const players = declared.players || [];
  return {
    style: declared.style || "checkered",
    columns: declared.columns && declared.columns.length === game.width ? declared.columns : numbers(game.width),
    rows: declared.rows && declared.rows.length === game.height ? declared.rows : numbers(game.height),
    pieces: declared.pieces || {},
    players: [...Array(game.players).keys()].map((p) => players[p] || `Player ${p}`),
  };
}

function playerName(player) {
  return page.look.players[player];
}

// A side's colour class: white and black for players so named, else one colour per side.
function sideClass(side) {
  const name = (playerName(side) || "").toLowerCase();
  if (name === "white" || name === "black") return `side-${name}`;
  return `side-${side % 8}`;
}

function letters(name) {
  return name.length <= 3 ? name : name.slice(0, 2);
}

function pieceElement(name) {
  const declared = page.look.pieces[name] || {};
  const side = Number.isInteger(declared.side) ? declared.side : null;
  const piece = document.createElement("span");
  const colour = side !== null ? sideClass(side) : `p${objectIndex(name) % 12}`;
  if (declared.image) {
    piece.className = "piece image";
    const image = document.createElement("img");
    image.src = declared.image;
    image.alt = name;
    piece.append(image);
  } else if (/^[●○⚫⚪◯◎◉]$/u.test(declared.glyph || "") || (page.look.style === "intersections" && !declared.glyph)) {
    // a stone, a disc, a man: drawn round and filled with the side's colour; ◎ ◉ crowned
    piece.className = `piece stone ${colour}${/^[◎◉]$/u.test(declared.glyph || "") ? " crowned" : ""}`;
  } else if (declared.glyph) {
    piece.className = `piece glyph ${colour}`;
    piece.textContent = side !== null ? solid(declared.glyph) : declared.glyph;
  } else {
    piece.className = `piece disc ${colour}`;
    piece.textContent = letters(name);
  }
  return piece;
}

// An outlined chess piece (♔ to ♙) as its solid form (♚ to ♟), so that the side's colour fills
// it; as text, never as an emoji (♟ has both forms).
function solid(glyph) {
  const code = glyph.codePointAt(0);
  const shape = code >= 0x2654 && code <= 0x2659 && glyph.length === 1 ? String.fromCodePoint(code + 6) : glyph;
  return /^[\u265a-\u265f]$/u.test(shape) ? `${shape}\ufe0e` : shape;
}

// Go's star points (hoshi) on the usual board sizes: 4 corners and the centre, 9 on 19x19.
function starPoints(width, height) {
  if (width !== height || width < 7) return [];
  const edge = width >= 13 ? 3 : 2;
  const far = width - 1 - edge;
  const middle = (width - 1) / 2;
  const lines = width === 19 ? [edge, middle, far] : [edge, far];
  const points = lines.flatMap((x) => lines.map((y) => [x, y]));
  if (width % 2 === 1 && width !== 19) points.push([middle, middle]);
  return points;
}

// The side of a square (a hexagon's height) that fits the board in the play area. A hex board
// is a rhombus: a cell is HEX_WIDTH of that wide, each row half a cell further right, and the
// rows nest a quarter of a cell into each other (style.css, "Hexagonal cells").
function cellSize(width, height, style) {
  const hex = style === "hex";
  const across = Math.max(200, $("play-area").clientWidth - 60);
  const down = Math.max(200, window.innerHeight - 230);
  const wide = hex ? (width + (height - 1) / 2) * HEX_WIDTH : width;
  const tall = hex ? height * 0.75 + 0.25 : height;
  const size = Math.floor(Math.min(across / wide, down / tall));
  return Math.max(10, Math.min(56, size));
}

// The columns and rows in the order they are drawn: row y = 0 at the bottom, as gdef-run
// prints it (at the top with --y-down); flipping turns the board half a turn.
function drawnOrder() {
  const { width, height, yDown } = page.game;
  const columns = [...Array(Math.min(width, MAX_DRAWN)).keys()].map((x) => x + page.view.x);
  const rows = [...Array(Math.min(height, MAX_DRAWN)).keys()].map((y) => y + page.view.y);
  if (!yDown) rows.reverse();
  if (page.flipped) {
    columns.reverse();
    rows.reverse();
  }
  return { columns, rows };
}

function buildBoard() {
  const { width, height } = page.game;
  const { style, columns: columnLabels, rows: rowLabels } = page.look;
  const board = $("board");
  const { columns, rows } = drawnOrder();
  page.cells = new Map();
  const cell = cellSize(columns.length, rows.length, style);
  board.style.setProperty("--cell", `${cell}px`);
  board.style.gridTemplateColumns = style === "hex" ? `auto repeat(${columns.length}, var(--hex-width)) auto`
    : `auto repeat(${columns.length}, var(--cell)) auto`;
  board.style.setProperty("--rows", String(rows.length));
  board.className = `board-${style}`;
  board.classList.toggle("small", cell < 18);
  const every = cell >= 18 ? 1 : cell >= 12 ? 5 : 10; // coordinate labels on every n-th line
  const label = (text, show, row = 0) => {
    const element = document.createElement("div");
    element.className = "label";
    element.textContent = show ? text : "";
    if (style === "hex") element.style.setProperty("--row", String(row)); // follows its row's slant
    return element;
  };
  const fragment = document.createDocumentFragment();
  const axis = (row) => {
    fragment.append(label("", false, row));
    for (const x of columns) fragment.append(label(columnLabels[x], x % every === 0, row));
    fragment.append(label("", false, row));
  };
  const stars = new Set(style === "intersections" ? starPoints(width, height).map(([x, y]) => `${x},${y}`) : []);
  axis(-0.5);
  rows.forEach((y, row) => {
    fragment.append(label(rowLabels[y], y % every === 0, row));
    columns.forEach((x, column) => {
      const square = document.createElement("div");
      square.className = style === "checkered" && (x + y) % 2 === 0 ? "sq dark" : "sq";
      if (style === "intersections") { // the lines stop at the board's edges
        if (column === 0) square.classList.add("edge-left");
        if (column === columns.length - 1) square.classList.add("edge-right");
        if (row === 0) square.classList.add("edge-top");
        if (row === rows.length - 1) square.classList.add("edge-bottom");
        if (stars.has(`${x},${y}`)) square.classList.add("star");
      }
      if (style === "hex") square.style.setProperty("--row", String(row));
      square.dataset.x = x;
      square.dataset.y = y;
      square.title = `${squareName(x, y)}: empty`;
      square.setAttribute("role", "button");
      square.setAttribute("aria-label", square.title);
      square.tabIndex = x === columns[0] && y === rows[0] ? 0 : -1; // one tab stop; arrows move inside the board
      const mark = document.createElement("span");
      mark.className = "mark"; // a star point, or the dot of a legal target
      square.append(mark);
      page.cells.set(`${x},${y}`, square);
      fragment.append(square);
    });
    fragment.append(label(rowLabels[y], y % every === 0, row));
  });
  axis(rows.length - 0.5);
  board.replaceChildren(fragment);
  page.shown = new Map(); // every piece is drawn again
  page.shownCounts = new Map();
  renderView();
}

// A board bigger than MAX_DRAWN: which part is drawn, and buttons to move the view.
function renderView() {
  const { width, height } = page.game;
  const partial = width > MAX_DRAWN || height > MAX_DRAWN;
  $("board-view").hidden = !partial;
  if (!partial) return;
  const { columns, rows } = page.look;
  const last = (start, length) => start + Math.min(length, MAX_DRAWN) - 1;
  $("view-text").textContent = `Columns ${columns[page.view.x]}–${columns[last(page.view.x, width)]}, rows ` +
    `${rows[page.view.y]}–${rows[last(page.view.y, height)]} of the ${width}×${height} board`;
}

// The view moved by (dx, dy) squares, or put around square (x, y); kept on the board.
function moveView(dx, dy, around = null) {
  const { width, height } = page.game;
  const inside = (start, length) => Math.max(0, Math.min(start, length - Math.min(length, MAX_DRAWN)));
  const half = Math.floor(MAX_DRAWN / 2);
  const next = around ? { x: inside(around[0] - half, width), y: inside(around[1] - half, height) }
    : { x: inside(page.view.x + dx, width), y: inside(page.view.y + dy, height) };
  if (next.x === page.view.x && next.y === page.view.y) return false;
  page.view = next;
  buildBoard();
  return true;
}

// After a move off the drawn part of a big board: the view follows it.
function followLastMove() {
  const last = page.state.moves[page.state.moves.length - 1];
  const squares = last ? squaresOf(last.move) : [];
  if (!squares.length || squares.some(([x, y]) => page.cells.has(`${x},${y}`))) return;
  moveView(0, 0, squares[squares.length - 1]);
}

// A square as players name it: `e4` with the game's labels, (x, y) with plain numbers.
function squareName(x, y) {
  const { columns, rows } = page.look;
  const plain = columns[x] === String(x) && rows[y] === String(y);
  return plain ? `(${x}, ${y})` : `${columns[x]}${rows[y]}`;
}

function render() {
  const { state, game, debugged } = page;
  if (!debugged) followLastMove();
  renderStatus();
  // squares: only those that changed are touched (a 100x100 board has 10,000)
  const now = new Map((debugged || state).board.map(([x, y, name]) => [`${x},${y}`, name]));
  for (const [key, name] of page.shown) {
    if (now.get(key) !== name) setSquare(key, now.get(key));
  }
  for (const [key, name] of now) {
    if (page.shown.get(key) !== name) setSquare(key, name);
  }
  page.shown = now;
  // counts (squares that count: seeds, stack heights), unless the game's `show` hides them
  const counts = new Map(page.look.counts === "hidden" ? []
    : ((debugged || state).counts || []).map(([x, y, n]) => [`${x},${y}`, n]));
  for (const key of page.shownCounts.keys()) {
    if (!counts.has(key)) setCount(key, undefined);
  }
  for (const [key, n] of counts) {
    if (page.shownCounts.get(key) !== n) setCount(key, n);
  }
  page.shownCounts = counts;
  $("board").classList.toggle("debugged", Boolean(debugged));
  renderHighlights();
  renderLegal();
  renderMoves();
  renderPlayers();
  renderScript();
  renderPosition();
  $("undo").disabled = state.moves.length === 0;
  $("move-text").disabled = state.over;
  $("play").disabled = state.over;
  $("pass").disabled = state.over || state.chance;
  // a chance node: a person rolls (the computer rolls for its own players)
  $("roll").hidden = state.over || !state.chance;
  $("roll").disabled = state.over || !state.chance || state.computerToMove || Boolean(debugged);
  document.title = `${game.name} — gdef`;
}

function setSquare(key, name) {
  const square = page.cells.get(key);
  if (!square) return; // off the drawn part of a big board
  const [x, y] = key.split(",").map(Number);
  square.querySelector(".piece")?.remove();
  if (name !== undefined) square.append(pieceElement(name));
  square.classList.toggle("occupied", name !== undefined);
  square.title = `${squareName(x, y)}: ${name === undefined ? "empty" : name}`;
  square.setAttribute("aria-label", square.title);
  if (name !== undefined) square.dataset.object = name;
  else delete square.dataset.object;
}

function setCount(key, n) {
  const square = page.cells.get(key);
  if (!square) return; // off the drawn part of a big board
  square.querySelector(".count")?.remove();
  if (n !== undefined) {
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = String(n);
    square.append(count);
  }
  const [x, y] = key.split(",").map(Number);
  const name = square.dataset.object;
  square.title = `${squareName(x, y)}: ${name === undefined ? "empty" : name}${n === undefined ? "" : `, count ${n}`}`;
  square.setAttribute("aria-label", square.title);
}

// The legal move of counts only (sowing) whose first square is (x, y): one click plays it.
function sownFrom(x, y) {
  const legal = page.legal;
  if (!legal || legal.error) return null;
  const found = legal.moves.filter((move) => move.ops.length > 0 && move.ops.every((op) => op.length > 3)
                                    && move.ops[0][0] === x && move.ops[0][1] === y);
  return found.length === 1 ? found[0] : null;
}

function agentOf(player) {
  return page.state.agents[player];
}

// "Black wins: checkmate", "Draw: stalemate": the result, with the comment of the line of
// end() that ended the game when it has one.
function resultText() {
  const { state } = page;
  const result = state.winner === null ? "Draw" : `${playerName(state.winner)} wins`;
  const why = state.endedBy && state.endedBy.comment;
  return why ? `${result}: ${why}` : result;
}

function scoresText() {
  const { state } = page;
  if (!state.scores.some((score) => score !== 0)) return "";
  return state.scores.map((score, player) => `${playerName(player)} ${score}`).join(" · ");
}

function renderStatus() {
  const { state, debugged } = page;
  const status = $("status");
  status.classList.toggle("over", state.over && !debugged);
  if (debugged) {
    status.textContent = `Debugging: ${debugged.title} (${playerName(debugged.player)} on turn)`;
  } else if (state.over) {
    status.textContent = resultText();
  } else if (state.chance && state.chanceError) {
    status.textContent = state.reason;
  } else if (state.chance) {
    status.textContent = state.computerToMove ? `Rolling for ${playerName(state.player)}…`
      : `${playerName(state.player)} to roll`;
  } else if (state.computerToMove) {
    status.textContent = `${playerName(state.player)} (${agentOf(state.player)}) to move…${lastRoll()}`;
  } else {
    status.textContent = `${playerName(state.player)} to move${lastRoll()}`;
  }
  const banner = $("banner");
  const ended = state.over && !page.bannerClosed && !debugged;
  banner.hidden = !ended;
  if (ended) {
    $("banner-result").textContent = resultText();
    $("banner-scores").textContent = scoresText();
  }
}

// " · rolled D3" when the move before this one was chance's.
function lastRoll() {
  const last = page.state.moves[page.state.moves.length - 1];
  return last && last.chance ? ` · rolled ${last.name || last.move}` : "";
}

// Stones each player has taken, on a board of intersections (Go): with two players, the
// opponent's stones placed and no longer on the board (a capture is a consequence of the move,
// made by the rules, not written in it); else the stones their moves cleared.
function captures() {
  const players = page.game ? page.game.players : 0;
  const placed = Array(players).fill(0);
  const cleared = Array(players).fill(0);
  for (const entry of page.state.moves) {
    placed[entry.player] += [...entry.move.matchAll(/place\s*\(/g)].length;
    cleared[entry.player] += [...entry.move.matchAll(/clear\s*\(/g)].length;
  }
  if (players !== 2) return cleared;
  const standing = [0, 0];
  for (const [, , name] of page.state.board) {
    const side = (page.look.pieces[name] || {}).side;
    if (side === 0 || side === 1) standing[side] += 1;
  }
  return [placed[1] - standing[1], placed[0] - standing[0]];
}

function squaresOf(text) {
  const squares = [];
  for (const match of text.matchAll(/(?:place|clear|count)\s*\(\s*(-?\d+)\s*,\s*(-?\d+)/g)) {
    squares.push([Number(match[1]), Number(match[2])]);
  }
  return squares;
}

function renderHighlights(strong) {
  for (const square of document.querySelectorAll(".sq.legal, .sq.candidate, .sq.target, .sq.strong, .sq.selected, .sq.pending, .sq.last")) {
    square.classList.remove("legal", "candidate", "target", "strong", "selected", "pending", "last");
  }
  const mark = (squares, name) => {
    for (const [x, y] of squares) page.cells.get(`${x},${y}`)?.classList.add(name);
  };
  if (page.debugged) { // the squares of the move being judged
    mark(page.debugged.move, "pending");
    return;
  }
  const last = page.state.moves[page.state.moves.length - 1];
  if (last) mark(squaresOf(last.move), "last");
  if (page.tool === "auto") {
    if (page.candidates) {
      const chosen = new Set(page.selection.map(([x, y]) => `${x},${y}`));
      for (const move of page.candidates.moves) {
        mark(move.squares, "candidate");
        // the legal targets: where the selected piece can go
        mark(move.ops.filter(([x, y, object]) => object && !chosen.has(`${x},${y}`)), "target");
      }
    } else if (page.look.style !== "intersections" && page.legal && page.legal.count === page.legal.moves.length
               && page.legal.moves.every((move) => move.ops.every(([, , object]) => object))) {
      // where a game that only places (tic-tac-toe, reversi) can place; a partial list would
      // tint part of the board only: then nothing is tinted
      for (const move of page.legal.moves) {
        mark(move.ops.filter(([x, y]) => !page.shown.has(`${x},${y}`)), "legal");
      }
    }
    mark(page.selection, "selected");
  } else {
    mark(squaresOf($("move-text").value), "pending");
  }
  if (strong) mark(strong, "strong");
}

function renderLegal() {
  const list = $("legal");
  const legal = page.candidates || page.legal;
  list.replaceChildren();
  if (!legal) return;
  if (legal.error) {
    $("legal-count").textContent = "(moves() failed)";
    const item = document.createElement("li");
    item.className = "failure";
    item.textContent = legal.reason;
    item.append(whereBox(legal.error));
    list.append(item);
    return;
  }
  if (legal.why && !page.candidates) { // stuck: rules whose end() goes on without a move left
    $("legal-count").textContent = "(0)";
    const item = document.createElement("li");
    item.className = "failure";
    item.textContent = legal.failure
      ? `No legal move: ${legal.why}; a move whose isMoveLegal() fails is refused.`
      : `No legal move (${legal.why}), yet end() did not end the game: the rules should end it (or let the player pass). Undo takes back the last move.`;
    if (legal.failure) item.append(whereBox(legal.failure));
    list.append(item);
    return;
  }
  const shown = legal.moves.slice(0, 500);
  // at a chance node the moves are chance's outcomes: each with its chance, weight / total
  const weights = new Map((page.state.outcomes || []).map((outcome) => [outcome.text, outcome.weight]));
  const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  for (const move of shown) {
    const item = document.createElement("li");
    item.textContent = move.name || move.text;
    if (page.state.chance && weights.has(move.text)) item.textContent += ` (${weights.get(move.text)}/${total})`;
    item.title = move.text;
    item.addEventListener("mouseenter", () => renderHighlights(move.squares));
    item.addEventListener("mouseleave", () => renderHighlights());
    item.addEventListener("click", () => enqueue(() => playMove(move.text, move.name)));
    list.append(item);
  }
  const more = legal.count - shown.length;
  if (more > 0) {
    const item = document.createElement("li");
    item.className = "muted";
    item.textContent = `… and ${more} more: click a square to narrow the list`;
    list.append(item);
  }
  const narrowed = page.candidates ? " touching the selected squares" : "";
  $("legal-count").textContent = `(${legal.count}${narrowed})`;
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  // numbered as moveNumber() counts: a game started from a position (a script's `# move:`) goes on from its number
  list.start = page.state.moveNumber - page.state.moves.length + 1;
  for (const entry of page.state.moves) {
    const item = document.createElement("li");
    item.textContent = entry.chance ? `rolled: ${entry.name || entry.move}` : `${playerName(entry.player)}: ${entry.name || entry.move}`;
    item.classList.toggle("chance", Boolean(entry.chance));
    item.title = entry.move;
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function renderPlayers() {
  const box = $("players");
  const { state, game } = page;
  if (box.childElementCount !== game.players) {
    box.replaceChildren();
    for (let player = 0; player < game.players; player++) {
      const row = document.createElement("label");
      row.className = "player";
      const side = document.createElement("span");
      side.className = `side-swatch ${sideClass(player)}`;
      row.append(side, playerName(player));
      const select = document.createElement("select");
      select.id = `agent-${player}`;
      select.addEventListener("change", () => enqueue(() => setAgent(player, select.value)));
      const facts = document.createElement("span");
      facts.className = "muted player-facts";
      facts.id = `facts-${player}`;
      row.append(select, facts);
      box.append(row);
    }
  }
  for (let player = 0; player < game.players; player++) {
    const select = $(`agent-${player}`);
    const current = state.agents[player];
    const options = AGENTS.includes(current) ? AGENTS : [...AGENTS, current];
    if ([...select.options].map((o) => o.value).join() !== options.join()) {
      select.replaceChildren(...options.map((value) => new Option(value === "human" ? "person" : value, value)));
    }
    select.value = current;
    select.parentElement.classList.toggle("turn", !state.over && state.player === player);
    const facts = [];
    if (page.look.style === "intersections") facts.push(`captures ${captures()[player]}`);
    if (state.scores.some((score) => score !== 0)) facts.push(`score ${state.scores[player]}`);
    $(`facts-${player}`).textContent = facts.join(", ");
  }
}

function renderScript() {
  const script = page.state.script;
  $("stepper").hidden = !script;
  const list = $("script");
  list.replaceChildren();
  if (!script) return;
  script.entries.forEach((entry, index) => {
    const item = document.createElement("li");
    item.value = entry.line;
    const result = entry.result;
    item.className = result ? result.status : "pending";
    if (index === script.cursor - 1) item.classList.add("current");
    item.textContent = entry.text;
    if (result && result.reason) {
      const note = document.createElement("span");
      note.className = "note";
      note.textContent = `${result.status}: ${result.reason}`;
      item.append(note);
    }
    item.title = `line ${entry.line}: click to step to here`;
    item.addEventListener("click", () => enqueue(() => stepTo(index + 1)));
    list.append(item);
  });
  $("step-back").disabled = $("step-start").disabled = script.cursor === 0;
  $("step-forward").disabled = $("step-end").disabled = script.cursor === script.entries.length;
  list.querySelector(".current")?.scrollIntoView({ block: "nearest" });
}

function renderPosition() {
  const { state } = page;
  const rows = [["move number", String(state.moveNumber)]];
  if (state.scores.some((score) => score !== 0)) {
    state.scores.forEach((score, player) => rows.push([`score of ${playerName(player)}`, String(score)]));
  }
  for (const [name, value] of Object.entries(state.vars)) rows.push([name, JSON.stringify(value)]);
  if (state.rejected) rows.push(["rejected attempts", String(state.rejected)]);
  const table = document.createElement("table");
  for (const [name, value] of rows) {
    const row = table.insertRow();
    row.insertCell().textContent = name;
    row.insertCell().textContent = value;
  }
  $("position").replaceChildren(table);
}

function renderTools() {
  const tools = $("tools");
  tools.replaceChildren();
  const add = (value, text, piece) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tool";
    button.dataset.tool = value;
    if (piece) button.append(pieceElement(piece));
    button.append(text);
    button.title = value === "auto" ? "a click picks squares of legal moves; a move plays when only one fits"
      : value === "clear" ? "a click adds clear(x,y) to the move below"
      : `a click adds place(x,y,${value}) to the move below`;
    button.addEventListener("click", () => setTool(value));
    tools.append(button);
  };
  add("auto", "Legal moves");
  for (const name of page.game.objects) add(name, `place ${name}`, name);
  add("clear", "clear");
  setTool(page.tool);
}

function setTool(tool) {
  page.tool = tool;
  for (const button of document.querySelectorAll(".tool")) button.classList.toggle("on", button.dataset.tool === tool);
  resetSelection();
}

// ------------------------------------------------------------------ messages

function say(text, kind = "") {
  const box = $("message");
  box.className = kind;
  box.textContent = text;
}

// `move`: the move refused, when the rules judged it (isMoveLegal() said no, or a rule failed):
// then the message offers to debug it.
function explain(prefix, verdict, move = null) {
  say(`${prefix}${verdict.reason}`, "error");
  if (verdict.error) $("message").append(whereBox(verdict.error));
  if (move && DEBUGGABLE.has(verdict.kind)) $("message").append(debugButton(move));
}

// ------------------------------------------------------------------ "Debug this move"

const DEBUGGABLE = new Set(["rejected", "runtime error"]); // refusals the rules decided

function debugButton(move) {
  const button = document.createElement("button");
  button.type = "button";
  button.id = "debug-move";
  button.textContent = "Debug this move";
  button.title = host ? "start a debug session on this position, stopped where isMoveLegal() starts judging the move"
    : "a launch configuration for gdef's debugger (VS Code, Neovim) on this position and move";
  button.addEventListener("click", () => enqueue(() => debugMove(move, button)));
  return button;
}

// In VS Code the extension starts the session; in a browser there is no editor to start it, so
// the page gives the launch configuration to paste into one (docs/debugging.md says why).
async function debugMove(move, button) {
  if (host) {
    const { data } = await ask({ type: "debugMove", move });
    if (data && data.error) say(data.error, "error");
    return;
  }
  const { launch, record } = await api("/api/debug", { move });
  const text = JSON.stringify(launch, null, 2);
  const box = document.createElement("div");
  box.id = "debug-launch";
  const note = document.createElement("p");
  note.textContent = `The game so far is saved in ${record}. To stop where isMoveLegal() starts judging ${move}, ` +
    "add this to the \"configurations\" of .vscode/launch.json and start it (VS Code with the gdef extension), " +
    "or run it with require(\"dap\").run(...) in Neovim:";
  const code = document.createElement("pre");
  code.textContent = text;
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = "Copy";
  copy.addEventListener("click", () => {
    navigator.clipboard.writeText(text).then(() => { copy.textContent = "Copied"; }, () => { copy.textContent = "Select the text to copy it"; });
  });
  box.append(note, code, copy);
  button.replaceWith(box);
}

// VS Code: a gdef debug session stopped at `position` (null: it ended) - the board shows it.
async function showDebugged(position) {
  page.debugged = position;
  if (position) render();
  else await refresh();
}

function whereBox(error) {
  const box = document.createElement("div");
  box.className = "where";
  const gutter = `${error.line} | `;
  const caret = " ".repeat(gutter.length + error.column - 1) + "^".repeat(Math.max(1, error.endColumn - error.column));
  box.textContent = [`${error.location}: error[${error.code}]: ${error.message}`, `${gutter}${error.source}`, caret,
    ...error.stack.map((line) => `  ${line}`)].join("\n");
  return box;
}

function failed(error) {
  if (error instanceof TypeError) { // fetch() could not connect
    say("gdef-run does not answer: has it stopped? (gdef-run --resume RECORD continues a saved game)", "error");
    return;
  }
  say(String(error.message || error), "error");
}

// ------------------------------------------------------------------ playing

async function playMove(text, name) {
  closeChooser();
  if (page.debugged) return; // the board shows a debugged position, not the game
  try {
    const result = await api("/api/move", { move: text });
    if (result.accepted) {
      say(`${playerName(result.player)} played ${result.name || name || result.move}.`, "ok");
      $("move-text").value = "";
    } else {
      explain(`Rejected ${text}: `, result, text);
    }
    page.computerStopped = false;
    await refresh();
  } catch (error) {
    failed(error);
  }
}

async function clickSquare(x, y) {
  if (page.debugged) {
    say("The board shows the position being debugged; the game comes back when the debug session ends.");
    return;
  }
  if (!page.state || page.state.over) return;
  if (page.tool !== "auto") {
    const op = page.tool === "clear" ? `clear(${x},${y})` : `place(${x},${y},${page.tool})`;
    const text = $("move-text").value.trim();
    $("move-text").value = text && text !== "pass" ? `${text.replace(/;\s*$/, "")}; ${op}` : op;
    renderHighlights();
    return;
  }
  if (page.state.computerToMove) {
    say(`${playerName(page.state.player)} is played by the computer (${agentOf(page.state.player)}).`);
    return;
  }
  const sown = page.selection.length === 0 ? sownFrom(x, y) : null;
  if (sown) {
    await playMove(sown.text, sown.name);
    return;
  }
  const at = page.selection.findIndex(([sx, sy]) => sx === x && sy === y);
  let selection = at >= 0 ? page.selection.filter((_, i) => i !== at) : [...page.selection, [x, y]];
  let candidates = selection.length ? await movesTouching(selection) : null;
  if (candidates && candidates.count === 0 && selection.length > 1 && at < 0) {
    selection = [[x, y]]; // a square that fits no move with the others starts a new choice
    candidates = await movesTouching(selection);
  }
  if (candidates && candidates.count === 0) {
    await explainSquare(x, y);
    resetSelection();
    return;
  }
  page.selection = selection;
  page.candidates = candidates;
  const chosen = new Set(selection.map(([sx, sy]) => `${sx},${sy}`));
  const exact = candidates ? candidates.moves.filter((m) => m.squares.every(([sx, sy]) => chosen.has(`${sx},${sy}`))) : [];
  // One move left: played once all its squares are clicked, or two of them (a capture's jumped
  // squares need no click of their own), or the one square it places on (a stone with its captures)
  const only = candidates && candidates.count === 1 ? candidates.moves[0] : null;
  if (only && (exact.length === 1 || selection.length >= 2 || placesOnlyAt(only, x, y))) {
    await playMove(only.text, only.name);
    return;
  }
  renderHighlights();
  renderLegal();
  // Several moves between the same squares (a promotion, a capture by two paths): ask which
  const choice = exact.length > 1 ? exact : selection.length >= 2 && candidates.count <= CHOICE_LIMIT ? candidates.moves : null;
  if (choice) {
    openChooser(choice);
    say(`${choice.length} moves go from ${squareName(...selection[0])} to ${squareName(...selection[selection.length - 1])}: which one?`);
  } else if (candidates) {
    say(candidates.count === 1 ? `1 legal move touches the selected squares: click another of its squares, or pick it from the list.`
      : `${candidates.count} legal moves touch the selected squares: click another square, or pick one from the list.`);
  } else {
    say("");
  }
}

// Whether a move's only placement is on (x, y), an empty square (Go's stone and its captures).
function placesOnlyAt(move, x, y) {
  const places = move.ops.filter(([, , object]) => object);
  return places.length === 1 && places[0][0] === x && places[0][1] === y && !page.shown.has(`${x},${y}`);
}

// The choice between moves with the same squares: each drawn by what it places last, named.
function openChooser(moves) {
  const box = $("chooser-moves");
  box.replaceChildren();
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    const placed = move.ops.filter(([, , object]) => object);
    const shown = placed[placed.length - 1];
    if (shown) button.append(pieceElement(shown[2]));
    const name = document.createElement("span");
    name.textContent = move.name || move.text;
    button.append(name);
    button.title = move.text;
    button.addEventListener("click", () => enqueue(() => playMove(move.text, move.name)));
    box.append(button);
  }
  $("chooser").hidden = false;
  box.querySelector("button")?.focus();
}

function closeChooser() {
  $("chooser").hidden = true;
}

async function movesTouching(selection) {
  const legal = page.legal;
  if (legal && !legal.error && legal.count === legal.moves.length) {
    const moves = legal.moves.filter((move) => selection.every(([x, y]) => move.squares.some(([mx, my]) => mx === x && my === y)));
    return { moves, count: moves.length };
  }
  const touching = selection.map(([x, y]) => `${x},${y}`).join(";");
  return api(`/api/legal?touching=${encodeURIComponent(touching)}`);
}

// A square no legal move touches: what would the rules say about the likeliest move there?
async function explainSquare(x, y) {
  const player = playerName(page.state.player);
  if (page.legal && page.legal.error) {
    explain(`${player} has no list of legal moves: `, page.legal);
    return;
  }
  const object = likelyObject();
  const occupant = page.shown.get(`${x},${y}`);
  if (!object) {
    say(`No legal move of ${player} touches ${squareName(x, y)}, and ${player} has no legal move at all.`, "error");
    return;
  }
  const move = `place(${x},${y},${object})`;
  const verdict = await api(`/api/check?move=${encodeURIComponent(move)}`);
  const where = occupant ? `${squareName(x, y)}, which holds ${occupant}` : squareName(x, y);
  if (verdict.legal) {
    say(`No legal move touches ${where}.`, "error");
  } else {
    explain(`No legal move of ${player} touches ${where}: ${move} is illegal: `, verdict, move);
  }
}

function likelyObject() {
  const counts = new Map();
  for (const move of page.legal ? page.legal.moves : []) {
    for (const [, , object] of move.ops) if (object) counts.set(object, (counts.get(object) || 0) + 1);
  }
  let best = null;
  for (const [object, count] of counts) if (best === null || count > counts.get(best)) best = object;
  return best;
}

function resetSelection() {
  closeChooser();
  page.selection = [];
  page.candidates = null;
  if (page.state) {
    renderHighlights();
    renderLegal();
  }
}

// Undo while the computer thinks is not queued behind its move: the server stops the search,
// plays nothing and takes back the move it was answering (as chess programs do).
async function undo() {
  try {
    const result = await api("/api/undo", {});
    const stopped = result.stoppedThinking ? "Stopped the computer's search. " : "";
    say(result.undone ? `${stopped}Took back the last move.` : "There is no move to take back.");
    page.computerStopped = false;
    await refresh();
  } catch (error) {
    failed(error);
  }
}

async function newGame() {
  try {
    const params = paramValues();
    const result = await api("/api/new", params ? { params } : {});
    if (result.reload) await loadGame();
    say(result.kept ? `A new game. The game before is kept in ${result.kept}.` : "A new game.", "ok");
    page.computerStopped = false;
    await refresh();
  } catch (error) {
    failed(error);
  }
}

async function setAgent(player, agent) {
  try {
    await api("/api/agent", { player, agent });
    say(`${playerName(player)} is now played by ${agent === "human" ? "a person" : `the computer (${agent})`}.`);
    page.computerStopped = false;
    await refresh();
  } catch (error) {
    failed(error);
  }
}

function scheduleComputer() {
  const { state } = page;
  const stepping = state.script && state.script.cursor < state.script.entries.length;
  if (!state.computerToMove || page.computerStopped || stepping) return;
  setTimeout(() => enqueue(computerMove), COMPUTER_PAUSE_MS);
}

// Chance's move at a chance node: the server draws an outcome by weight and plays it.
async function roll() {
  if (page.debugged || !page.state.chance || page.state.over) return;
  try {
    const result = await api("/api/roll", {});
    if (result.accepted) {
      say(`Rolled ${result.name || result.move}.`, "ok");
    } else {
      explain("The roll failed: ", result);
    }
    page.computerStopped = false;
    await refresh();
  } catch (error) {
    failed(error);
  }
}

async function computerMove() {
  if (!page.state.computerToMove || page.computerStopped) return;
  setThinking(true);
  try {
    const result = await api("/api/computer", {});
    if (result.accepted && result.chance) {
      say(`Rolled ${result.name || result.move} for ${playerName(result.player)}.`, "ok");
    } else if (result.accepted) {
      say(`${playerName(result.player)} (${result.agent}) played ${result.name || result.move}.`, "ok");
    } else if (result.kind !== "abandoned") { // abandoned: an undo stopped it, and says so
      page.computerStopped = true;
      explain(`The computer cannot move: `, result);
    }
  } catch (error) {
    page.computerStopped = true;
    failed(error);
  } finally {
    setThinking(false);
  }
  await refresh().catch(failed);
}

// A computer player thinks for another page (a tab opened meanwhile, or the page before a
// reload): this one shows the position it thinks about with "Move now" and looks again until
// the move is played; the state after it.
async function othersThinking() {
  render();
  setThinking(true);
  try {
    let state = page.state;
    while (state.thinking) {
      await new Promise((resolve) => setTimeout(resolve, THINKING_POLL_MS));
      state = await api("/api/state");
    }
    return state;
  } finally {
    setThinking(false);
  }
}

// "Move now" shows while the computer thinks: its search stops and it plays the best move found.
function setThinking(thinking) {
  page.thinking = thinking;
  $("move-now").hidden = !thinking;
  $("move-now").disabled = false;
}

// The button shows as the page asks for the computer's move; pressed before the server has
// started the search, it asks again until the search has begun (or the move has come). The
// move may come before this answer does: then the page says what was played, not "Asked".
async function moveNow() {
  if (!page.thinking) return;
  $("move-now").disabled = true;
  try {
    while (page.thinking) {
      const result = await api("/api/move-now", {});
      if (result.stopped) {
        if (page.thinking) say(`Asked ${result.thinking} to play the best move it has found so far.`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, MOVE_NOW_RETRY_MS));
    }
  } catch (error) {
    failed(error);
  }
}

// ------------------------------------------------------------------ scripts and records

async function openScript(file) {
  try {
    await openScriptText(file.name, await file.text());
  } catch (error) {
    failed(error);
  } finally {
    $("script-file").value = "";
  }
}

// In VS Code: the editor's own open dialog, on the machine where the game's files are.
async function pickScript() {
  try {
    const { data } = await ask({ type: "pickScript" });
    if (data) await openScriptText(data.name, data.text, data.path);
  } catch (error) {
    failed(error);
  }
}

async function openScriptText(name, text, path = null) {
  const result = await api("/api/script", { text, name });
  if (result.reload) await loadGame();  // loaded again with the script's `# param:` values
  page.scriptSource = { name, text, path };
  const kept = result.kept ? ` The game before is kept in ${result.kept}.` : "";
  say(`${name}: ${result.entries} step${result.entries === 1 ? "" : "s"}, from the start position. Step with ▶ or →.${kept}`);
  await refresh();
}

async function stepTo(to) {
  if (!page.state.script) return;
  try {
    const result = await api("/api/step", { to });
    const entry = result.cursor ? page.state.script.entries[result.cursor - 1] : null;
    const outcome = result.result;
    if (!entry) say("At the start.");
    else if (outcome.status === "rejected") explain(`Line ${entry.line}: ${entry.text} is rejected: `, outcome);
    else if (outcome.status === "failed") explain(`Line ${entry.line}: ${entry.text} failed: `, outcome);
    else say(`Line ${entry.line}: ${entry.text} (${outcome.status}${outcome.reason ? `: ${outcome.reason}` : ""}).`,
      outcome.status === "skipped" ? "error" : "ok");
    await refresh();
  } catch (error) {
    failed(error);
  }
}

function step(delta) {
  enqueue(() => {
    const script = page.state && page.state.script;
    if (!script) return undefined;
    const to = delta === Infinity ? script.entries.length : delta === -Infinity ? 0 : script.cursor + delta;
    return stepTo(Math.max(0, Math.min(script.entries.length, to)));
  });
}

async function saveRecord() {
  try {
    const result = host ? (await ask({ type: "saveRecord", name: page.game.name })).data : await api("/api/save", {});
    if (result) say(result.saved ? `The record is saved in ${result.path}.` : result.reason, result.saved ? "ok" : "");
  } catch (error) {
    failed(error);
  }
}

// The keyboard on the board: arrows move between squares (y grows upwards, as drawn unless
// --y-down), Enter or Space clicks the square.
function boardKey(event) {
  const square = event.target.closest(".sq");
  if (!square) return;
  const x = Number(square.dataset.x);
  const y = Number(square.dataset.y);
  const up = page.game.yDown ? -1 : 1;
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, up], ArrowDown: [0, -up] };
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    enqueue(() => clickSquare(x, y));
  } else if (steps[event.key]) {
    event.preventDefault();
    event.stopPropagation(); // not a step through a script
    const [dx, dy] = steps[event.key];
    const next = page.cells.get(`${x + dx},${y + dy}`);
    if (next) {
      square.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    }
  }
}

function flip() {
  page.flipped = !page.flipped;
  $("flip").classList.toggle("on", page.flipped);
  buildBoard();
  if (page.state) render();
}

// Drag and drop: a piece dragged from one square to another is the two clicks, from then to.
function startDrag(event) {
  const square = event.target.closest(".sq");
  if (!square || event.button !== 0 || page.tool !== "auto" || !square.dataset.object) return;
  const from = [Number(square.dataset.x), Number(square.dataset.y)];
  const piece = square.querySelector(".piece");
  let ghost = null;
  const move = (moved) => {
    if (!ghost && Math.hypot(moved.clientX - event.clientX, moved.clientY - event.clientY) < 6) return;
    if (!ghost) {
      ghost = piece.cloneNode(true);
      ghost.classList.add("dragged");
      ghost.style.width = ghost.style.height = `${square.clientWidth}px`;
      ghost.style.setProperty("--cell", `${square.clientWidth}px`);
      document.body.append(ghost);
      piece.classList.add("lifted");
    }
    ghost.style.left = `${moved.clientX - square.clientWidth / 2}px`;
    ghost.style.top = `${moved.clientY - square.clientHeight / 2}px`;
  };
  const drop = (dropped) => {
    document.removeEventListener("pointermove", move);
    document.removeEventListener("pointerup", drop);
    if (!ghost) return; // a click, handled as one
    ghost.remove();
    piece.classList.remove("lifted");
    const target = document.elementFromPoint(dropped.clientX, dropped.clientY)?.closest(".sq");
    if (!target || target === square) return;
    const to = [Number(target.dataset.x), Number(target.dataset.y)];
    page.droppedAt = Date.now(); // a click that follows the drop is not a click on a square
    enqueue(async () => {
      resetSelection();
      await clickSquare(...from);
      if (page.selection.length) await clickSquare(...to);
    });
  };
  document.addEventListener("pointermove", move);
  document.addEventListener("pointerup", drop);
}

// ------------------------------------------------------------------ start

// The game's facts and the empty board: at start, and in VS Code after each edit of the rules.
// The game's parameters (`param` declarations) as a small form: the values the next new game
// is loaded with. A range is a number field, a list a menu, a bool a checkbox.
function renderParams(params) {
  const form = $("params");
  form.replaceChildren(form.querySelector("legend"));
  form.hidden = params.length === 0;
  for (const param of params) {
    const label = document.createElement("label");
    label.textContent = `${param.name} `;
    let input;
    if (param.values) {
      input = document.createElement("select");
      for (const value of param.values) input.append(new Option(String(value), String(value), false, value === param.value));
    } else {
      input = document.createElement("input");
      input.type = param.type === "bool" ? "checkbox" : "number";
      if (param.type === "bool") input.checked = param.value;
      else {
        input.value = String(param.value);
        input.step = param.type === "int" ? "1" : "any";
        if (param.range) [input.min, input.max] = param.range.map(String);
      }
    }
    input.dataset.param = param.name;
    label.append(input);
    form.append(label);
  }
}

function paramValues() {
  const inputs = [...$("params").querySelectorAll("[data-param]")];
  if (inputs.length === 0) return null;
  return Object.fromEntries(inputs.map((input) => [input.dataset.param, input.type === "checkbox" ? String(input.checked) : input.value]));
}

async function loadGame() {
  page.game = await api("/api/game");
  const { game } = page;
  renderParams(game.params || []);
  $("title").textContent = game.name;
  $("game-facts").textContent = `${game.players} player${game.players === 1 ? "" : "s"}, ${game.width}×${game.height} board, ` +
    `${game.files.join(", ")}; x left to right, y ${game.yDown ? "top to bottom" : "bottom to top"}`;
  $("download").download = `${game.name}-record.json`;
  page.look = lookOf(game);
  page.view = { x: 0, y: 0 };
  page.shown = new Map();
  buildBoard();
  renderTools();
}

// VS Code: the rules were edited and a new child serves them. The game starts again from the
// start position; the computer players and an open move script (stepped back to where it was)
// are kept.
async function reloadGame() {
  const before = page.state;
  const script = before && before.script && page.scriptSource ? { ...page.scriptSource, cursor: before.script.cursor } : null;
  page.computerStopped = false;
  $("players").replaceChildren();
  await loadGame();
  if (before) {
    for (let player = 0; player < page.game.players && player < before.agents.length; player++) {
      if (before.agents[player] !== "human") await api("/api/agent", { player, agent: before.agents[player] }).catch(() => undefined);
    }
  }
  if (script) {
    const text = script.path ? ((await ask({ type: "readScript", path: script.path })).data ?? script.text) : script.text;
    if ((await api("/api/script", { text, name: script.name })).reload) await loadGame();
    page.scriptSource = { ...script, text };
    if (script.cursor) await api("/api/step", { to: script.cursor });
  }
  say("");
  await refresh();
}

function notice(text) {
  $("notice").hidden = !text;
  $("notice").textContent = text || "";
}

function listenToHost() {
  window.addEventListener("message", (event) => {
    const message = event.data;
    if (!message || typeof message !== "object") return;
    if (message.type === "answer" && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    } else if (message.type === "reload") {
      enqueue(reloadGame);
    } else if (message.type === "notice") {
      notice(message.text);
    } else if (message.type === "debugPosition") {
      enqueue(() => showDebugged(message.position || null));
    }
  });
  $("download").hidden = true; // a webview cannot download: "Save record" asks where
  $("save").title = "write the game record to a file you choose";
  $("script-file").addEventListener("click", (event) => {
    event.preventDefault();
    enqueue(pickScript);
  });
}

async function start() {
  if (host) listenToHost();
  try {
    await loadGame();
  } catch (error) {
    $("status").textContent = "Cannot reach gdef-run";
    failed(error);
    return;
  }
  $("board").addEventListener("click", (event) => {
    const square = event.target.closest(".sq");
    if (square && Date.now() - page.droppedAt > DROP_CLICK_MS) enqueue(() => clickSquare(Number(square.dataset.x), Number(square.dataset.y)));
  });
  $("board").addEventListener("pointerdown", startDrag);
  $("board").addEventListener("dragstart", (event) => event.preventDefault());
  $("flip").addEventListener("click", flip);
  const pan = Math.floor(MAX_DRAWN / 2);
  for (const [id, dx, dy] of [["view-left", -pan, 0], ["view-right", pan, 0], ["view-down", 0, -pan], ["view-up", 0, pan]]) {
    $(id).addEventListener("click", () => { if (moveView(dx, dy) && page.state) render(); });
  }
  let resizing = null; // the board follows the window (a phone turned sideways)
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => { buildBoard(); if (page.state) render(); }, 150);
  });
  $("chooser-cancel").addEventListener("click", () => resetSelection());
  $("banner-close").addEventListener("click", () => { page.bannerClosed = true; renderStatus(); });
  $("banner-new").addEventListener("click", () => enqueue(newGame));
  $("compose").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-text").value.trim();
    if (text) enqueue(() => playMove(text));
    else say("Write a move, or click squares with a place or clear tool.");
  });
  $("move-text").addEventListener("input", () => renderHighlights());
  $("pass").addEventListener("click", () => enqueue(() => playMove("pass")));
  $("roll").addEventListener("click", () => enqueue(roll));
  $("reset").addEventListener("click", () => { $("move-text").value = ""; resetSelection(); say(""); });
  $("undo").addEventListener("click", () => (page.thinking ? undo() : enqueue(undo)));
  $("move-now").addEventListener("click", moveNow);
  $("new-game").addEventListener("click", () => enqueue(newGame));
  $("save").addEventListener("click", () => enqueue(saveRecord));
  $("script-file").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (file) enqueue(() => openScript(file));
  });
  $("step-start").addEventListener("click", () => step(-Infinity));
  $("step-back").addEventListener("click", () => step(-1));
  $("step-forward").addEventListener("click", () => step(1));
  $("step-end").addEventListener("click", () => step(Infinity));
  $("step-close").addEventListener("click", () => enqueue(async () => { await api("/api/script/close", {}); await refresh(); }));
  $("board").addEventListener("keydown", boardKey);
  document.addEventListener("keydown", (event) => {
    if (event.target.matches("input, select, textarea")) return;
    if (event.key === "ArrowRight") step(1);
    else if (event.key === "ArrowLeft") step(-1);
    else if (event.key === "Home") step(-Infinity);
    else if (event.key === "End") step(Infinity);
    else if (event.key === "Escape") resetSelection();
    else if (event.key === "m" && !event.ctrlKey && !event.metaKey && !event.altKey) moveNow();
    else if (event.key === "f" && !event.ctrlKey && !event.metaKey && !event.altKey) flip();
  });
  await refresh().catch(failed);
}

start();
