// The analysis board page: pick a variant and a start (or paste a FEN), play both sides, read
// the moves in Chinese notation and ICCS. Every position is computed by POST /api/positions/.
import { mountBoard } from "./board.js";

const page = JSON.parse(document.getElementById("analysis-page").textContent);
const labels = page.labels;
const $ = (id) => document.getElementById(id);

const state = {
  variant: page.variant,
  fen: page.fen, // a pasted FEN, or null for a named start
  setup: page.setup,
  moves: page.moves.slice(),
  result: null,
  busy: false,
};

function cookie(name) {
  const match = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
  return match ? decodeURIComponent(match[1]) : "";
}

async function analyse(body) {
  const response = await fetch(page.api.positions, {
    method: "POST",
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      // the server says what went wrong in the page's language
      "Accept-Language": document.documentElement.lang || "zh-hans",
      "X-CSRFToken": cookie("csrftoken"),
    },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) {
    // data.error.message is already in the reader's language (code and params beside it)
    const error = new Error(data.error ? data.error.message : response.statusText);
    error.code = data.error ? data.error.code : null;
    error.extra = data.error ? data.error.extra : {};
    throw error;
  }
  return data;
}

let board = null;

function variantInfo(name) {
  return page.variants.find((v) => v.name === name);
}

function mount() {
  const orientation = board ? board.orientation() : "red";
  if (board) board.destroy();
  const el = $("board");
  el.className = "board";
  board = mountBoard(el, {
    variant: state.variant,
    orientation,
    label: labels.board || "board",
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
  return `${location.origin}${location.pathname}?${params.toString()}`;
}

function sideName(side) {
  return side === "red" ? labels.red : labels.black;
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
      ? `${name} — ${sideName(result.winner)} ${labels.wins}`
      : `${name} — ${labels.draw}`;
    status.className = "status status-over";
  } else if (result.check) {
    line.textContent = `${labels.check} ${sideName(result.turn)} ${labels.to_move}`;
    status.className = "status status-check";
  } else {
    line.textContent = `${sideName(result.turn)} ${labels.to_move}`;
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
  const chinese = document.createElement("span");
  chinese.className = "chinese";
  chinese.textContent = move.chinese;
  const iccs = document.createElement("span");
  iccs.className = "iccs";
  iccs.textContent = move.iccs;
  cell.append(chinese, " ", iccs);
  if (ply === state.moves.length) cell.classList.add("current");
  return cell;
}

function renderMoves(result) {
  const body = $("move-list");
  body.textContent = "";
  const moves = result.played.slice();
  const blackFirst = result.start_fen.trim().split(/\s+/)[1] === "b";
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
  scroller.scrollTop = scroller.scrollHeight;
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
  renderMoves(result);
  $("fen-output").value = result.fen;
  $("share-link").value = shareUrl();
  $("undo").disabled = state.moves.length === 0;
  history.replaceState(null, "", shareUrl());
  document.body.dataset.ready = "1";
}

async function refresh() {
  state.busy = true;
  document.body.dataset.ready = "";
  const body = { variant: state.variant, moves: state.moves };
  if (state.fen) body.fen = state.fen;
  else if (state.setup) body.setup = state.setup;
  try {
    const result = await analyse(body);
    state.moves = result.played.map((m) => m.iccs);
    showError("");
    render(result);
    return true;
  } catch (error) {
    showError(error.message);
    return false;
  } finally {
    state.busy = false;
  }
}

async function play(move) {
  if (state.busy) return;
  state.moves.push(move);
  if (!(await refresh())) {
    state.moves.pop();
    if (state.result) render(state.result);
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
    refresh();
  });
  $("fen-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const fen = $("fen-input").value.trim();
    if (!fen) return;
    const previous = { fen: state.fen, setup: state.setup, moves: state.moves };
    state.fen = fen;
    state.setup = null;
    state.moves = [];
    if (await refresh()) {
      $("start-select").value = "";
    } else {
      Object.assign(state, previous);
    }
  });
  $("move-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("move-input");
    const text = input.value.trim();
    if (!text || state.busy) return;
    state.moves.push(text);
    if (await refresh()) {
      input.value = "";
    } else {
      state.moves.pop();
    }
  });
  $("undo").addEventListener("click", () => {
    if (!state.moves.length || state.busy) return;
    state.moves.pop();
    refresh();
  });
  $("reset").addEventListener("click", () => {
    state.moves = [];
    refresh();
  });
  $("flip").addEventListener("click", () => board.flip());
  $("copy-fen").addEventListener("click", (event) => copy($("fen-output").value, event.currentTarget));
  $("copy-link").addEventListener("click", (event) => copy($("share-link").value, event.currentTarget));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft" || event.key === "Backspace") $("undo").click();
    if (event.key === "f") board.flip();
  });
}

$("variant-select").value = state.variant;
fillStarts();
mount();
bind();
refresh();
window.analysisBoard = { state, board: () => board };
