// The board page of `gdef-run --web`: draws the position the JSON API returns and turns clicks
// into moves. No build step and no libraries: the file is served as it is (docs/web.md).
"use strict";

const AGENTS = ["human", "random", "greedy", "mcts"];
const COMPUTER_PAUSE_MS = 250; // lets a person see each computer move

const $ = (id) => document.getElementById(id);
const page = {
  game: null,       // /api/game
  state: null,      // /api/state
  legal: null,      // /api/legal for the position (up to its limit)
  tool: "auto",     // "auto" (match legal moves), an object's name, or "clear"
  selection: [],    // squares clicked in auto mode, [[x, y], ...]
  candidates: null, // legal moves touching every selected square
  cells: new Map(), // "x,y" -> the square's element
  shown: new Map(), // "x,y" -> the object drawn there
  queue: Promise.resolve(), // actions run one after another, in the order of the clicks
  computerStopped: false, // a computer move failed: wait for the person
  scriptSource: null, // the open move script {name, text, path}, opened again after a reload
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
  page.state = await api("/api/state");
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

function glyph(name) {
  return name.length <= 3 ? name : name.slice(0, 2);
}

function pieceElement(name) {
  const piece = document.createElement("span");
  piece.className = `piece p${objectIndex(name) % 12}`;
  piece.textContent = glyph(name);
  return piece;
}

function cellSize(width, height) {
  const wrap = $("board-wrap");
  const across = Math.max(200, wrap.clientWidth - 60);
  const down = Math.max(200, window.innerHeight - 230);
  const size = Math.floor(Math.min(across / width, down / height));
  return Math.max(10, Math.min(56, size));
}

function buildBoard() {
  const { width, height } = page.game;
  const board = $("board");
  const cell = cellSize(width, height);
  board.style.setProperty("--cell", `${cell}px`);
  board.style.gridTemplateColumns = `auto repeat(${width}, var(--cell)) auto`;
  board.classList.toggle("small", cell < 18);
  const every = cell >= 18 ? 1 : cell >= 12 ? 5 : 10; // coordinate labels on every n-th line
  const label = (text, show) => {
    const element = document.createElement("div");
    element.className = "label";
    element.textContent = show ? text : "";
    return element;
  };
  const fragment = document.createDocumentFragment();
  const axis = () => {
    fragment.append(label("", false));
    for (let x = 0; x < width; x++) fragment.append(label(String(x), x % every === 0));
    fragment.append(label("", false));
  };
  axis();
  // row y = 0 at the bottom, as gdef-run prints it (at the top with --y-down)
  const rows = [...Array(height).keys()];
  if (!page.game.yDown) rows.reverse();
  for (const y of rows) {
    fragment.append(label(String(y), y % every === 0));
    for (let x = 0; x < width; x++) {
      const square = document.createElement("div");
      square.className = (x + y) % 2 === 0 ? "sq dark" : "sq";
      square.dataset.x = x;
      square.dataset.y = y;
      square.title = `(${x}, ${y}): empty`;
      square.setAttribute("role", "button");
      square.setAttribute("aria-label", square.title);
      square.tabIndex = x === 0 && y === 0 ? 0 : -1; // one tab stop; arrows move inside the board
      page.cells.set(`${x},${y}`, square);
      fragment.append(square);
    }
    fragment.append(label(String(y), y % every === 0));
  }
  axis();
  board.replaceChildren(fragment);
}

function render() {
  const { state, game } = page;
  renderStatus();
  // squares: only those that changed are touched (a 100x100 board has 10,000)
  const now = new Map(state.board.map(([x, y, name]) => [`${x},${y}`, name]));
  for (const [key, name] of page.shown) {
    if (now.get(key) !== name) setSquare(key, now.get(key));
  }
  for (const [key, name] of now) {
    if (page.shown.get(key) !== name) setSquare(key, name);
  }
  page.shown = now;
  renderHighlights();
  renderLegal();
  renderMoves();
  renderPlayers();
  renderScript();
  renderPosition();
  $("undo").disabled = state.moves.length === 0;
  $("move-text").disabled = state.over;
  $("play").disabled = state.over;
  $("pass").disabled = state.over;
  document.title = `${game.name} — gdef`;
}

function setSquare(key, name) {
  const square = page.cells.get(key);
  const [x, y] = key.split(",");
  square.replaceChildren();
  if (name !== undefined) square.append(pieceElement(name));
  square.title = `(${x}, ${y}): ${name === undefined ? "empty" : name}`;
  square.setAttribute("aria-label", square.title);
  if (name !== undefined) square.dataset.object = name;
  else delete square.dataset.object;
}

function agentOf(player) {
  return page.state.agents[player];
}

function renderStatus() {
  const { state } = page;
  const status = $("status");
  status.classList.toggle("over", state.over);
  if (state.over) {
    status.textContent = state.winner === null ? "Draw" : `Player ${state.winner} wins`;
  } else if (state.computerToMove) {
    status.textContent = `Player ${state.player} (${agentOf(state.player)}) to move…`;
  } else {
    status.textContent = `Player ${state.player} to move`;
  }
}

function squaresOf(text) {
  const squares = [];
  for (const match of text.matchAll(/(?:place|clear)\s*\(\s*(-?\d+)\s*,\s*(-?\d+)/g)) {
    squares.push([Number(match[1]), Number(match[2])]);
  }
  return squares;
}

function renderHighlights(strong) {
  for (const square of document.querySelectorAll(".sq.legal, .sq.candidate, .sq.strong, .sq.selected, .sq.pending, .sq.last")) {
    square.classList.remove("legal", "candidate", "strong", "selected", "pending", "last");
  }
  const mark = (squares, name) => {
    for (const [x, y] of squares) page.cells.get(`${x},${y}`)?.classList.add(name);
  };
  const last = page.state.moves[page.state.moves.length - 1];
  if (last) mark(squaresOf(last.move), "last");
  if (page.tool === "auto") {
    if (page.candidates) {
      for (const move of page.candidates.moves) mark(move.squares, "candidate");
    } else if (page.legal && page.legal.count === page.legal.moves.length) {
      // (a partial list would tint part of the board only: then nothing is tinted)
      for (const move of page.legal.moves) mark(move.squares, "legal");
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
  const shown = legal.moves.slice(0, 500);
  for (const move of shown) {
    const item = document.createElement("li");
    item.textContent = move.text;
    item.addEventListener("mouseenter", () => renderHighlights(move.squares));
    item.addEventListener("mouseleave", () => renderHighlights());
    item.addEventListener("click", () => enqueue(() => playMove(move.text)));
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
  for (const entry of page.state.moves) {
    const item = document.createElement("li");
    item.textContent = `P${entry.player}: ${entry.move}`;
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
      row.append(`Player ${player}`);
      const select = document.createElement("select");
      select.id = `agent-${player}`;
      select.addEventListener("change", () => enqueue(() => setAgent(player, select.value)));
      row.append(select);
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
    state.scores.forEach((score, player) => rows.push([`score of player ${player}`, String(score)]));
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

function explain(prefix, verdict) {
  say(`${prefix}${verdict.reason}`, "error");
  if (verdict.error) $("message").append(whereBox(verdict.error));
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

async function playMove(text) {
  try {
    const result = await api("/api/move", { move: text });
    if (result.accepted) {
      say(`Player ${result.player} played ${result.move}.`, "ok");
      $("move-text").value = "";
    } else {
      explain(`Rejected ${text}: `, result);
    }
    page.computerStopped = false;
    await refresh();
  } catch (error) {
    failed(error);
  }
}

async function clickSquare(x, y) {
  if (!page.state || page.state.over) return;
  if (page.tool !== "auto") {
    const op = page.tool === "clear" ? `clear(${x},${y})` : `place(${x},${y},${page.tool})`;
    const text = $("move-text").value.trim();
    $("move-text").value = text && text !== "pass" ? `${text.replace(/;\s*$/, "")}; ${op}` : op;
    renderHighlights();
    return;
  }
  if (page.state.computerToMove) {
    say(`Player ${page.state.player} is played by the computer (${agentOf(page.state.player)}).`);
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
  // squares need no click of their own)
  if (candidates && candidates.count === 1 && (exact.length === 1 || selection.length >= 2)) {
    await playMove(candidates.moves[0].text);
    return;
  }
  if (candidates) {
    say(exact.length > 1 ? `${exact.length} moves use exactly these squares: pick one from the list.`
      : candidates.count === 1 ? `1 legal move touches the selected squares: click another of its squares, or pick it from the list.`
      : `${candidates.count} legal moves touch the selected squares: click another square, or pick one from the list.`);
  } else {
    say("");
  }
  renderHighlights();
  renderLegal();
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
  const player = page.state.player;
  if (page.legal && page.legal.error) {
    explain(`Player ${player} has no list of legal moves: `, page.legal);
    return;
  }
  const object = likelyObject();
  const occupant = page.shown.get(`${x},${y}`);
  if (!object) {
    say(`No legal move of player ${player} touches (${x}, ${y}), and player ${player} has no legal move at all.`, "error");
    return;
  }
  const move = `place(${x},${y},${object})`;
  const verdict = await api(`/api/check?move=${encodeURIComponent(move)}`);
  const where = occupant ? `(${x}, ${y}), which holds ${occupant}` : `(${x}, ${y})`;
  if (verdict.legal) {
    say(`No legal move touches ${where}.`, "error");
  } else {
    explain(`No legal move of player ${player} touches ${where}: ${move} is illegal: `, verdict);
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
  page.selection = [];
  page.candidates = null;
  if (page.state) {
    renderHighlights();
    renderLegal();
  }
}

async function undo() {
  try {
    const result = await api("/api/undo", {});
    say(result.undone ? "Took back the last move." : "There is no move to take back.");
    page.computerStopped = false;
    await refresh();
  } catch (error) {
    failed(error);
  }
}

async function newGame() {
  try {
    const result = await api("/api/new", {});
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
    say(`Player ${player} is now played by ${agent === "human" ? "a person" : `the computer (${agent})`}.`);
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

async function computerMove() {
  if (!page.state.computerToMove || page.computerStopped) return;
  try {
    const result = await api("/api/computer", {});
    if (result.accepted) {
      say(`Player ${result.player} (${result.agent}) played ${result.move}.`, "ok");
    } else {
      page.computerStopped = true;
      explain(`The computer cannot move: `, result);
    }
  } catch (error) {
    page.computerStopped = true;
    failed(error);
  }
  await refresh().catch(failed);
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

// ------------------------------------------------------------------ start

// The game's facts and the empty board: at start, and in VS Code after each edit of the rules.
async function loadGame() {
  page.game = await api("/api/game");
  const { game } = page;
  $("title").textContent = game.name;
  $("game-facts").textContent = `${game.players} player${game.players === 1 ? "" : "s"}, ${game.width}×${game.height} board, ` +
    `${game.files.join(", ")}; x left to right, y ${game.yDown ? "top to bottom" : "bottom to top"}`;
  $("download").download = `${game.name}-record.json`;
  page.cells = new Map();
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
    await api("/api/script", { text, name: script.name });
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
    if (square) enqueue(() => clickSquare(Number(square.dataset.x), Number(square.dataset.y)));
  });
  $("compose").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-text").value.trim();
    if (text) enqueue(() => playMove(text));
    else say("Write a move, or click squares with a place or clear tool.");
  });
  $("move-text").addEventListener("input", () => renderHighlights());
  $("pass").addEventListener("click", () => enqueue(() => playMove("pass")));
  $("reset").addEventListener("click", () => { $("move-text").value = ""; resetSelection(); say(""); });
  $("undo").addEventListener("click", () => enqueue(undo));
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
  });
  await refresh().catch(failed);
}

start();
