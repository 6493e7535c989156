// The analysis board page: pick a variant and a start (or paste a FEN), play both sides, read
// the moves in Chinese notation and ICCS, go back and forward through them (click a move, the
// buttons, or the arrow keys). Every position is computed by POST /api/positions/. On request
// the engine evaluates the position shown (POST /api/games/analysis/, then polled): a bar and a
// number from the side to move, the best line, and a forced mate played out on the board.
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
  engineFollow(result);
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

const engineLabels = labels.engine;
const engine = {
  asked: null, // the FEN of the position asked about
  result: null, // the engine's answer for it
  line: [], // the best line (ICCS) from that position
  showing: false,
  polling: false,
};

function engineError(message) {
  const box = $("engine-error");
  box.textContent = message || "";
  box.hidden = !message;
}

function enginePending(on) {
  $("engine-pending").hidden = !on;
  $("engine-run").disabled = on;
  $("engine").dataset.state = on ? "pending" : engine.result ? "done" : "";
}

// Red's share of the bar, from a score for Red (centipawns), or a mate.
function redShare(redScore, mateFor) {
  if (mateFor) return mateFor === "red" ? 100 : 0;
  return Math.round(50 + 50 * (2 / (1 + Math.exp(-redScore / 400)) - 1));
}

function showEngine(result) {
  engine.result = result;
  engine.line = result.line.map((m) => m.iccs);
  const turn = result.turn;
  const other = turn === "red" ? "black" : "red";
  const mateFor = result.mate ? (result.mate > 0 ? turn : other) : null;
  const redScore = result.score === null ? 0 : turn === "red" ? result.score : -result.score;
  const share = redShare(redScore, mateFor);
  $("eval-bar-red").style.width = `${share}%`;
  $("eval-bar").setAttribute("aria-valuenow", String(share));
  let verdict;
  if (mateFor) verdict = fill(engineLabels.winning, { side: sideName(mateFor) });
  else if (Math.abs(redScore) < 50) verdict = engineLabels.equal;
  else {
    const ahead = redScore > 0 ? "red" : "black";
    const words = Math.abs(redScore) >= 300 ? engineLabels.winning : engineLabels.better;
    verdict = fill(words, { side: sideName(ahead) });
  }
  $("engine-verdict").textContent = verdict;
  const number =
    result.mate !== null
      ? `${result.mate > 0 ? "+" : "-"}M${Math.abs(result.mate)}`
      : `${result.score > 0 ? "+" : ""}${(result.score / 100).toFixed(2)}`;
  $("engine-number").textContent = fill(engineLabels.score, { score: number, side: sideName(turn) });
  $("engine-number").dataset.score = result.score === null ? "" : String(result.score);
  const mate = $("engine-mate");
  mate.hidden = !mateFor;
  mate.dataset.forced = result.forced ? "1" : "";
  if (mateFor) {
    const said = fill(engineLabels.mate_for, { side: sideName(mateFor), n: Math.abs(result.mate) });
    mate.textContent = `${said} · ${result.forced ? engineLabels.forced : engineLabels.not_proved}`;
  }
  $("engine-show").hidden = !result.forced;
  $("engine-show").disabled = false;
  const list = $("engine-line");
  list.textContent = "";
  for (const move of result.line) {
    const item = document.createElement("li");
    item.dataset.iccs = move.iccs;
    moveText(item, move);
    list.appendChild(item);
  }
  $("engine-depth").textContent = fill(engineLabels.depth, {
    depth: result.depth,
    nodes: result.nodes.toLocaleString(),
    seconds: result.seconds,
  });
  $("engine-result").hidden = false;
  $("engine").dataset.state = "done";
}

// After every position shown: an answer about another position is put away (unless the mate
// is being played out from it).
function engineFollow(result) {
  if (!engine.result || engine.showing) return;
  if (result.fen !== engine.asked) {
    engine.result = null;
    $("engine-result").hidden = true;
    $("engine").dataset.state = "";
  }
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function askEngine() {
  if (engine.polling || !state.result) return;
  engineError("");
  engine.polling = true;
  engine.result = null;
  $("engine-result").hidden = true;
  enginePending(true);
  const asked = state.result.fen;
  try {
    let answer = await api("POST", page.api.engine, requestBody(state.moves.slice(0, state.ply)));
    while (answer.status === "pending") {
      await pause(400);
      answer = await api("GET", answer.url);
    }
    if (answer.status === "failed") {
      const error = answer.result.error || {};
      const lang = (document.documentElement.lang || "zh").startsWith("en") ? "en" : "zh";
      throw new Error((error.message && error.message[lang]) || error.code || "failed");
    }
    if (state.result && state.result.fen !== asked) {
      engineError(engineLabels.stale);
      return;
    }
    engine.asked = asked;
    showEngine(answer.result);
  } catch (error) {
    engineError(error.message);
  } finally {
    engine.polling = false;
    enginePending(false);
  }
}

// Play the engine's line out on the board, one move at a time, from the position it was
// asked about.
async function showMate() {
  if (!engine.result || engine.showing || state.busy) return;
  engine.showing = true;
  const button = $("engine-show");
  const said = button.textContent;
  button.disabled = true;
  button.textContent = engineLabels.showing;
  $("engine").dataset.showing = "1";
  try {
    const items = $("engine-line").children;
    for (let i = 0; i < engine.line.length; i++) {
      await pause(500);
      if (!(await play(engine.line[i]))) break;
      for (const item of items) item.classList.toggle("shown", item === items[i]);
    }
  } finally {
    engine.showing = false;
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
  $("engine-run").addEventListener("click", askEngine);
  $("engine-show").addEventListener("click", showMate);
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
fillStarts();
mount();
bind();
refresh();
window.analysisBoard = { state, engine, board: () => board };
