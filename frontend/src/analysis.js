// The analysis board page: pick a variant and a start (or paste a FEN), play both sides, read
// the moves in Chinese notation and ICCS, go back and forward through them (click a move, the
// buttons, or the arrow keys). Every position is computed by POST /api/positions/.
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
window.analysisBoard = { state, board: () => board };
