// The analysis board page: pick a variant and a start (or paste a FEN), play both sides, read
// the moves in Chinese notation and ICCS, go back and forward through them (click a move, the
// buttons, or the arrow keys). Every position is computed by POST /api/positions/. The engine
// looks at the position shown as soon as it is shown, deeper and deeper while it stays (unless
// switched off): a bar and a number from Red's side, three lines in Chinese notation with ICCS,
// the engine's name and depth, and a forced mate played out on the board.
import { api } from "../../core/static/core/api.js";
import { moveText } from "../../core/static/core/notation.js";
import { attachMoveInput, mountBoard } from "./board.js";

const page = JSON.parse(document.getElementById("analysis-page").textContent);
const labels = page.labels;
const $ = (id) => document.getElementById(id);

const state = {
  variant: page.variant,
  fen: page.fen, // a pasted FEN, or null for a named start
  setup: page.setup,
  moves: page.moves.slice(), // the whole line
  ply: page.ply ?? page.moves.length, // how many of its moves the board shows
  line: null, // the API's answer for the whole line
  result: null, // the API's answer for the position shown
  busy: false,
};

// Every position is the server's answer; a refusal comes as an ApiError whose message is
// already in the reader's language (the code and its details beside it).
const analyse = (body) => api("POST", page.api.positions, body);

let board = null;

function variantInfo(name) {
  return page.variants.find((v) => v.name === name);
}

function mount() {
  const orientation = board ? board.orientation() : "red";
  if (board) board.destroy();
  board = mountBoard($("board"), {
    variant: state.variant,
    orientation,
    onMove: (iccs) => play(iccs),
  });
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function shareUrl() {
  const params = new URLSearchParams();
  params.set("variant", state.variant);
  if (state.fen) params.set("fen", state.fen);
  else if (state.setup) params.set("setup", state.setup);
  if (state.moves.length) params.set("moves", state.moves.join(","));
  if (state.ply < state.moves.length) params.set("ply", String(state.ply));
  return `${location.origin}${location.pathname}?${params.toString()}`;
}

function sideName(side) {
  return side === "red" ? labels.red : labels.black;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => values[key] ?? "");
}

function renderStatus(result) {
  const status = $("status");
  status.dataset.turn = result.turn;
  status.dataset.check = result.check ? "1" : "";
  status.dataset.termination = result.termination || "";
  status.textContent = "";
  const line = document.createElement("strong");
  if (result.termination) {
    const name = labels.terminations[result.termination] || result.termination;
    line.textContent = result.winner
      ? fill(labels.over_wins, { result: name, side: sideName(result.winner) })
      : fill(labels.over_draw, { result: name });
    status.className = "status status-over";
  } else if (result.check) {
    line.textContent = fill(labels.check_to_move, { side: sideName(result.turn) });
    status.className = "status status-check";
  } else {
    line.textContent = fill(labels.side_to_move, { side: sideName(result.turn) });
    status.className = "status";
  }
  status.appendChild(line);
}

function moveCell(move, ply) {
  const cell = document.createElement("td");
  if (!move) {
    cell.textContent = "…";
    return cell;
  }
  cell.className = "move";
  cell.dataset.ply = String(ply);
  cell.dataset.iccs = move.iccs;
  // A button: click it (or Enter) to see the position after this move.
  const button = document.createElement("button");
  button.type = "button";
  button.className = "move-link";
  moveText(button, move);
  button.addEventListener("click", () => goTo(ply));
  cell.append(button);
  if (ply === state.ply) {
    cell.classList.add("current");
    button.setAttribute("aria-current", "step");
  }
  return cell;
}

function renderMoves(line) {
  const body = $("move-list");
  body.textContent = "";
  const moves = line.played.slice();
  const blackFirst = line.start_fen.trim().split(/\s+/)[1] === "b";
  if (blackFirst) moves.unshift(null);
  for (let i = 0; i < moves.length; i += 2) {
    const row = document.createElement("tr");
    const number = document.createElement("th");
    number.textContent = String(i / 2 + 1);
    const redPly = blackFirst ? i : i + 1;
    row.append(number, moveCell(moves[i], redPly));
    if (i + 1 < moves.length) row.append(moveCell(moves[i + 1], redPly + 1));
    body.appendChild(row);
  }
  const scroller = $("move-list-box");
  const current = body.querySelector("td.current");
  if (state.ply === state.moves.length || !current) scroller.scrollTop = scroller.scrollHeight;
  else current.scrollIntoView({ block: "nearest" });
}

function render(result) {
  state.result = result;
  const last = result.played.length ? result.played[result.played.length - 1].iccs : null;
  board.set({
    fen: result.fen,
    dests: result.legal_moves.map((m) => m.iccs),
    movable: result.termination ? null : result.turn,
    lastMove: last,
    check: result.check_square,
  });
  renderStatus(result);
  renderMoves(state.line || result);
  $("fen-output").value = result.fen;
  $("share-link").value = shareUrl();
  $("undo").disabled = state.ply === 0;
  $("first").disabled = $("back").disabled = state.ply === 0;
  $("forward").disabled = $("last").disabled = state.ply >= state.moves.length;
  history.replaceState(null, "", shareUrl());
  engineFollow();
  document.body.dataset.ready = "1";
}

// One request at a time, in order: a quick change of variant then start must end on the start
// chosen last, whichever answer the server sends first.
let pending = Promise.resolve();
function inTurn(task) {
  const run = pending.then(task);
  pending = run.catch(() => {});
  return run;
}

function requestBody(moves) {
  const body = { variant: state.variant, moves };
  if (state.fen) body.fen = state.fen;
  else if (state.setup) body.setup = state.setup;
  return body;
}

// One step of the board through the server, in turn: busy while `work` runs, then the
// position it returns shown (null: nothing to change) or the server's reason said. Resolves
// to true when the board shows what was asked.
function step(work) {
  return inTurn(async () => {
    state.busy = true;
    document.body.dataset.ready = "";
    try {
      const shown = await work();
      if (shown === null) {
        document.body.dataset.ready = "1";
      } else {
        showError("");
        render(shown);
      }
      return true;
    } catch (error) {
      showError(error.message);
      document.body.dataset.ready = "1";
      return false;
    } finally {
      state.busy = false;
    }
  });
}

// Read the whole line again (it changed), then show the position after state.ply of its moves.
function refresh() {
  return step(async () => {
    const line = await analyse(requestBody(state.moves));
    const played = line.played.map((m) => m.iccs);
    const at = Math.min(state.ply, played.length);
    const shown = at === played.length ? line : await analyse(requestBody(played.slice(0, at)));
    state.moves = played;
    state.ply = at;
    state.line = line;
    return shown;
  });
}

// Show the position after the first `ply` moves of the line; the line itself stays.
function goTo(ply) {
  if (state.busy || !state.line) return Promise.resolve(false);
  return step(async () => {
    const target = Math.max(0, Math.min(ply, state.moves.length));
    if (target === state.ply) return null;
    const shown =
      target === state.moves.length ? state.line : await analyse(requestBody(state.moves.slice(0, target)));
    state.ply = target;
    return shown;
  });
}

// A move played or typed where the board is: the line goes on from here (a move that is the
// line's next one just steps forward; another one replaces the rest of the line).
async function play(move) {
  if (state.busy) return false;
  if (state.moves[state.ply] === move) return goTo(state.ply + 1);
  const before = { moves: state.moves, ply: state.ply };
  state.moves = state.moves.slice(0, state.ply).concat([move]);
  state.ply = state.moves.length;
  const ok = await refresh();
  if (!ok) {
    Object.assign(state, before);
    if (state.result) render(state.result);
    return false;
  }
  return true;
}

// --- The engine ---------------------------------------------------------------------------
// As soon as a position is shown (and while the switch is on and the tab in sight) the engine
// is asked about it on its first, small budget (POST /api/games/analysis/, then polled); each
// answer names the next, larger budget (`next_nodes`), asked for in turn until the last. A
// new position, the switch turned off or the tab hidden ends the series: nothing more is asked.

const engineLabels = labels.engine;
const ENGINE_KEY = "xq-analysis-engine"; // localStorage: "on" | "off"
const CUT_SHORT_PAUSE_MS = 1000; // before asking again for a budget a search gave up
const engine = {
  on: storedEngineSwitch(),
  fen: null, // the position the engine is (or was last) asked about
  series: 0, // bumped to end the current series of questions
  running: null, // the series that is asking now, if any
  asked: false, // whether the engine has been asked about anything on this page yet
  result: null, // the engine's last answer about `fen`
  nextNodes: null, // the budget to ask with next about `fen` (null: the first, or none left)
  final: false, // the last budget answered (or a forced mate proved)
  line: [], // the best line (ICCS) from `fen`
  showing: false,
  timer: null,
};

function storedEngineSwitch() {
  try {
    return window.localStorage.getItem(ENGINE_KEY) !== "off";
  } catch {
    return true;
  }
}

function storeEngineSwitch(on) {
  try {
    window.localStorage.setItem(ENGINE_KEY, on ? "on" : "off");
  } catch {
    // private mode: the choice lasts for this page only
  }
}

function engineState(name) {
  $("engine").dataset.state = name;
  $("engine-pending").hidden = !(name === "pending" || name === "deepening");
  $("engine-pending").textContent = name === "deepening" ? engineLabels.deepening : engineLabels.thinking;
}

function engineNote(message) {
  const note = $("engine-note");
  note.textContent = message || "";
  note.hidden = !message;
}

function engineError(message) {
  const box = $("engine-error");
  box.textContent = message || "";
  box.hidden = !message;
}

// Red's share of the bar, from Red's score (centipawns) or mate (positive: Red mates).
function redShare(cp, mate) {
  if (mate) return mate > 0 ? 100 : 0;
  return Math.round(50 + 50 * (2 / (1 + Math.exp(-(cp || 0) / 400)) - 1));
}

// A score from Red's side as players read it: +1.25 (Red better), -0.40, M3 (Red mates in 3),
// -M3 (Black mates in 3).
function scoreText(cp, mate) {
  if (mate !== null && mate !== undefined) return `${mate < 0 ? "-" : ""}M${Math.abs(mate)}`;
  const pawns = (cp || 0) / 100;
  return `${pawns > 0 ? "+" : ""}${pawns.toFixed(2)}`;
}

function engineName(result) {
  return (engineLabels.names && engineLabels.names[result.engine]) || result.label || result.engine;
}

function lineItem(line, index) {
  const item = document.createElement("li");
  item.className = "engine-line";
  item.dataset.cp = line.cp === null ? "" : String(line.cp);
  item.dataset.mate = line.mate === null ? "" : String(line.mate);
  const score = document.createElement("span");
  score.className = "engine-line-score";
  score.textContent = scoreText(line.cp, line.mate);
  score.title = engineLabels.red_side;
  const moves = document.createElement("span");
  moves.className = "engine-line-moves";
  if (index === 0) moves.id = "engine-line";
  line.moves.forEach((move, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "engine-move";
    button.dataset.iccs = move.iccs;
    button.title = engineLabels.play_line;
    moveText(button, move);
    button.addEventListener("click", () => playLine(line.moves.slice(0, i + 1).map((m) => m.iccs)));
    moves.append(button);
  });
  item.append(score, " ", moves);
  return item;
}

function showEngine(result) {
  engine.result = result;
  engine.line = result.line.map((m) => m.iccs);
  const best = result.lines[0] || { cp: result.score, mate: result.mate };
  const share = redShare(best.cp, best.mate);
  $("eval-bar-red").style.width = `${share}%`;
  $("eval-bar").setAttribute("aria-valuenow", String(share));
  const number = $("engine-number");
  number.textContent = scoreText(best.cp, best.mate);
  number.dataset.cp = best.cp === null ? "" : String(best.cp);
  number.dataset.mate = best.mate === null ? "" : String(best.mate);
  let verdict;
  if (best.mate) verdict = fill(engineLabels.winning, { side: sideName(best.mate > 0 ? "red" : "black") });
  else if (Math.abs(best.cp) < 50) verdict = engineLabels.equal;
  else {
    const words = Math.abs(best.cp) >= 300 ? engineLabels.winning : engineLabels.better;
    verdict = fill(words, { side: sideName(best.cp > 0 ? "red" : "black") });
  }
  $("engine-verdict").textContent = verdict;
  const mate = $("engine-mate");
  const mateFor = result.mate ? (result.mate > 0 ? result.turn : result.turn === "red" ? "black" : "red") : null;
  mate.hidden = !mateFor;
  mate.dataset.forced = result.forced ? "1" : "";
  if (mateFor) {
    const said = fill(engineLabels.mate_for, { side: sideName(mateFor), n: Math.abs(result.mate) });
    mate.textContent = `${said} · ${result.forced ? engineLabels.forced : engineLabels.not_proved}`;
  }
  $("engine-show").hidden = !result.forced;
  $("engine-show").disabled = false;
  const list = $("engine-lines");
  list.textContent = "";
  result.lines.forEach((line, i) => list.appendChild(lineItem(line, i)));
  $("engine").dataset.lines = String(result.lines.length);
  const info = $("engine-info");
  info.textContent = fill(engineLabels.engine_depth, { engine: engineName(result), depth: result.depth });
  info.dataset.engine = result.engine;
  info.dataset.depth = String(result.depth);
  $("engine-depth").textContent = fill(engineLabels.positions, {
    nodes: result.nodes.toLocaleString(),
    seconds: result.seconds,
  });
  $("engine-result").hidden = false;
}

function hideEngine() {
  engine.result = null;
  $("engine-result").hidden = true;
  $("engine-info").textContent = "";
  delete $("engine-info").dataset.depth;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function engineWanted() {
  return engine.on && !document.hidden && state.result && !state.result.termination;
}

// The position shown changed (or the switch, or the tab): a new series of questions, a moment
// after it settles (a quick walk through the moves asks about the position it stops at).
function engineFollow() {
  if (engine.showing) return;
  const result = state.result;
  if (!result) return;
  const fen = result.fen;
  if (fen !== engine.fen) {
    engine.fen = fen;
    engine.nextNodes = null;
    engine.final = false;
    hideEngine();
  } else if (engine.running === engine.series) {
    return; // the same position shown again: its series goes on
  }
  engineRestart();
}

function engineRestart() {
  engine.series += 1;
  clearTimeout(engine.timer);
  engineError("");
  engineNote("");
  if (!engine.on) {
    engineState("off");
    return;
  }
  if (state.result && state.result.termination) {
    hideEngine();
    engineNote(engineLabels.over);
    engineState("over");
    return;
  }
  if (engine.final) {
    engineState("final");
    return;
  }
  if (document.hidden) {
    engineState("paused");
    return;
  }
  const series = engine.series;
  engineState(engine.result ? "deepening" : "pending");
  // the first position of the page at once; another one once it has been shown a moment
  const settle = engine.result || !engine.asked ? 0 : 150;
  engine.asked = true;
  engine.timer = setTimeout(() => engineSeries(series), settle);
}

// One POST for the position shown, retried while the server asks to wait (429, 409); then
// polled until it is done or failed. Resolves to the search, or null once the series ended.
async function engineAsk(series, body) {
  let wait = 2000;
  let answer = null;
  while (answer === null) {
    if (series !== engine.series) return null;
    try {
      answer = await api("POST", page.api.engine, body);
    } catch (error) {
      if (error.status !== 429 && error.status !== 409) throw error;
      engineNote(engineLabels.waiting);
      await pause(wait);
      wait = Math.min(wait * 2, 15000);
    }
  }
  engineNote("");
  let delay = 80;
  while (answer.status === "pending") {
    await pause(delay);
    delay = Math.min(delay * 1.3, 500);
    if (series !== engine.series) return null;
    answer = await api("GET", answer.url);
  }
  return answer;
}

async function engineSeries(series) {
  if (series !== engine.series) return;
  engine.running = series;
  const fen = engine.fen;
  const base = requestBody(state.moves.slice(0, state.ply));
  try {
    while (series === engine.series && engineWanted() && state.result.fen === fen) {
      const body = engine.nextNodes ? { ...base, nodes: engine.nextNodes } : base;
      const answer = await engineAsk(series, body);
      if (answer === null || series !== engine.series) return;
      if (answer.status === "failed") {
        const error = answer.result.error || {};
        const lang = (document.documentElement.lang || "zh").startsWith("en") ? "en" : "zh";
        const message = (error.message && error.message[lang]) || error.code || "failed";
        if (error.code === "analysis.superseded") {
          engineNote(message); // another tab asked: this one waits until the board changes
          engineState("superseded");
        } else {
          engineError(message);
          engineState("error");
        }
        return;
      }
      // a search cut short (it gave way to another visitor's first look) is shown unless the
      // board already shows a deeper one of this position; its budget is asked for again
      const deeper = engine.result && engine.result.fen === answer.result.fen &&
        engine.result.depth > answer.result.depth;
      if (!(answer.cut_short && deeper)) showEngine(answer.result);
      engine.nextNodes = answer.next_nodes;
      if (answer.cut_short) await pause(CUT_SHORT_PAUSE_MS);
      if (!answer.next_nodes) {
        engine.final = true;
        engineState("final");
        return;
      }
      engineState("deepening");
    }
  } catch (error) {
    if (series === engine.series) {
      engineError(error.message);
      engineState("error");
    }
  } finally {
    if (engine.running === series) engine.running = null;
  }
}

function setEngineSwitch(on) {
  engine.on = on;
  $("engine-toggle").checked = on;
  $("engine").dataset.on = on ? "1" : "";
  storeEngineSwitch(on);
  if (!on) hideEngine();
  engineRestart();
}

// Play moves from the position the engine was asked about, one at a time (a line's moves
// up to the one clicked); the engine waits until they are all on the board.
async function playLine(moves, stepMs = 0) {
  if (engine.showing || state.busy || !state.result || state.result.fen !== engine.fen) return false;
  engine.showing = true;
  try {
    const items = $("engine-line") ? $("engine-line").children : [];
    for (let i = 0; i < moves.length; i++) {
      if (stepMs) await pause(stepMs);
      if (!(await play(moves[i]))) return false;
      if (stepMs) for (const item of items) item.classList.toggle("shown", item === items[i]);
    }
    return true;
  } finally {
    engine.showing = false;
    engineFollow();
  }
}

// Play the forced mate out on the board, one move at a time.
async function showMate() {
  if (!engine.result || engine.showing || state.busy) return;
  const button = $("engine-show");
  const said = button.textContent;
  button.disabled = true;
  button.textContent = engineLabels.showing;
  $("engine").dataset.showing = "1";
  try {
    await playLine(engine.line, 500);
  } finally {
    button.textContent = said;
    $("engine").dataset.showing = "";
    $("engine").dataset.shown = "1";
  }
}

function fillStarts() {
  const select = $("start-select");
  select.textContent = "";
  for (const start of variantInfo(state.variant).starts) {
    const option = document.createElement("option");
    option.value = start;
    option.textContent = (labels.starts && labels.starts[start]) || start;
    select.appendChild(option);
  }
  const custom = document.createElement("option");
  custom.value = "";
  custom.textContent = labels.custom_fen;
  select.appendChild(custom);
  select.value = state.fen ? "" : state.setup || variantInfo(state.variant).starts[0];
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  const before = button.textContent;
  button.textContent = labels.copied;
  setTimeout(() => (button.textContent = before), 1200);
}

function bind() {
  $("variant-select").addEventListener("change", (event) => {
    state.variant = event.target.value;
    state.fen = null;
    state.setup = null;
    state.moves = [];
    state.ply = 0;
    fillStarts();
    mount();
    refresh();
  });
  $("start-select").addEventListener("change", (event) => {
    if (!event.target.value) {
      $("fen-input").focus();
      return;
    }
    state.setup = event.target.value;
    state.fen = null;
    state.moves = [];
    state.ply = 0;
    refresh();
  });
  $("fen-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const fen = $("fen-input").value.trim();
    if (!fen) return;
    const previous = { fen: state.fen, setup: state.setup, moves: state.moves, ply: state.ply };
    state.fen = fen;
    state.setup = null;
    state.moves = [];
    state.ply = 0;
    if (await refresh()) {
      $("start-select").value = "";
    } else {
      Object.assign(state, previous);
    }
  });
  attachMoveInput($("move-form"), { board: () => board, onMove: play, showError });
  // Undo takes back the move that led to the position shown (and what followed it).
  $("undo").addEventListener("click", () => {
    if (!state.ply || state.busy) return;
    state.moves = state.moves.slice(0, state.ply - 1);
    state.ply = state.moves.length;
    refresh();
  });
  $("reset").addEventListener("click", () => {
    state.moves = [];
    state.ply = 0;
    refresh();
  });
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(state.ply - 1));
  $("forward").addEventListener("click", () => goTo(state.ply + 1));
  $("last").addEventListener("click", () => goTo(state.moves.length));
  $("flip").addEventListener("click", () => board.flip());
  $("engine-toggle").addEventListener("change", (event) => setEngineSwitch(event.target.checked));
  $("engine-show").addEventListener("click", showMate);
  document.addEventListener("visibilitychange", engineRestart);
  $("copy-fen").addEventListener("click", (event) => copy($("fen-output").value, event.currentTarget));
  $("copy-link").addEventListener("click", (event) => copy($("share-link").value, event.currentTarget));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {
      ArrowLeft: () => goTo(state.ply - 1),
      ArrowRight: () => goTo(state.ply + 1),
      Home: () => goTo(0),
      End: () => goTo(state.moves.length),
      Backspace: () => $("undo").click(),
      f: () => board.flip(),
    };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });
}

$("variant-select").value = state.variant;
$("engine-toggle").checked = engine.on;
$("engine").dataset.on = engine.on ? "1" : "";
fillStarts();
mount();
bind();
refresh();
window.analysisBoard = { state, engine, board: () => board };
