// A live game between two people: the board, both clocks, the move list and the buttons.
// The page holds no rule and no clock of its own: the server judges every move and keeps the
// clocks; it sends the whole game on every connect (a reload or a reconnect goes on where the
// game stood) and after every change. The page counts the running clock down from the
// server's figure between two states, and says when it reaches zero.
import { format } from "../core/api.js";
import { copyLink } from "../core/copy.js";

const page = JSON.parse(document.getElementById("live-page").textContent);
const L = page.labels;
const { mountBoard } = await import(page.board_module);

const $ = (id) => document.getElementById(id);
const zh = document.documentElement.lang.toLowerCase().startsWith("zh");
const pick = (text) => (text ? (zh ? text.zh : text.en) : "");
const sideName = (side) => (side === "red" ? L.red : L.black);
const other = (side) => (side === "red" ? "black" : "red");

const state = {
  game: null,
  you: null, // "red" | "black" | null (watching)
  received: 0, // performance.now() when the state came: the running clock counts from it
  socket: null,
  retries: 0,
  connections: 0, // connections opened by this page (a reconnect adds one)
  claimed: null, // the ply at which this page said the running clock reached zero
};

const board = mountBoard($("board"), {
  variant: page.variant,
  fen: page.start_fen,
  orientation: "red",
  label: page.board_label,
  onMove: (iccs) => play(iccs),
  fitBelow: [$("clock-bottom")],
});

// -- the connection -------------------------------------------------------------------------

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}${page.socket}`);
  state.socket = socket;
  document.body.dataset.connected = "0";
  socket.addEventListener("open", () => {
    state.retries = 0;
    state.connections += 1;
    document.body.dataset.connected = "1";
    document.body.dataset.connections = String(state.connections);
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    document.body.dataset.connected = "0";
    // no move can reach the server now: the board waits for the state of the next connection
    board.set({ movable: null, dests: [] });
    document.body.dataset.movable = "0";
    if (state.game && ["finished", "aborted"].includes(state.game.status)) return;
    setStatus(L.reconnecting, "thinking");
    const wait = Math.min(5000, 500 * 2 ** state.retries++);
    setTimeout(connect, wait);
  });
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(message));
  }
}

function receive(message) {
  if (message.type === "state") {
    state.game = message.game;
    state.you = message.you;
    state.received = performance.now();
    explain("");
    render();
  } else if (message.type === "error") {
    explain(pick(message.message));
    $("explanation").dataset.code = message.code;
  }
}

// -- actions --------------------------------------------------------------------------------

function play(iccs) {
  const g = state.game;
  send({ type: "move", ply: g.ply, move: iccs });
  // the board shows the move at once; the server's state confirms it (or puts it back)
  board.set({ movable: null, dests: [] });
  document.body.dataset.movable = "0";
}

$("resign").addEventListener("click", () => {
  if (window.confirm(L.confirm_resign)) send({ type: "resign" });
});
$("abort").addEventListener("click", () => send({ type: "abort" }));
$("draw").addEventListener("click", () => send({ type: "draw", action: "offer" }));
$("draw-accept").addEventListener("click", () => send({ type: "draw", action: "accept" }));
$("draw-decline").addEventListener("click", () => send({ type: "draw", action: "decline" }));
$("rematch-offer").addEventListener("click", () => send({ type: "rematch", action: "offer" }));
$("rematch-accept").addEventListener("click", () => send({ type: "rematch", action: "accept" }));
$("rematch-decline").addEventListener("click", () => send({ type: "rematch", action: "decline" }));
const copy = $("copy-link");
if (copy) copy.addEventListener("click", () => copyLink($("share-link"), copy, "✓"));

// -- showing it -----------------------------------------------------------------------------

function explain(text) {
  $("explanation").textContent = text || "";
  $("explanation").hidden = !text;
}

function setStatus(text, kind) {
  const box = $("status");
  box.textContent = text;
  box.className = `status${kind ? ` status-${kind}` : ""}`;
  box.dataset.kind = kind || "";
}

function connected() {
  return state.socket !== null && state.socket.readyState === WebSocket.OPEN;
}

function myTurn() {
  const g = state.game;
  return connected() && g.status === "playing" && state.you !== null && g.turn === state.you;
}

function renderStatus() {
  const g = state.game;
  if (g.status === "waiting") {
    setStatus(state.you === null && !$("invite") ? L.waiting_spectator : L.waiting, "setup");
  } else if (g.status === "aborted") {
    setStatus(L.aborted, "over");
  } else if (g.status === "finished") {
    setStatus(pick(g.ending), "over");
  } else if (state.you !== null) {
    const mine = g.turn === state.you;
    const text = mine ? (g.check ? L.check_your_turn : L.your_turn) : L.their_turn;
    setStatus(text, mine ? (g.check ? "check" : "your-turn") : "thinking");
  } else {
    const text = format(g.check ? L.check_to_move : L.to_move, { side: sideName(g.turn) });
    setStatus(text, g.check ? "check" : "your-turn");
  }
  const seat = $("seat");
  seat.textContent =
    g.status === "waiting" ? "" : state.you ? format(L.you_play, { side: sideName(state.you) }) : L.watching;
}

function clockText(ms) {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function shownClock(side) {
  const clock = state.game.clock;
  const left = side === "red" ? clock.red_ms : clock.black_ms;
  if (clock.running !== side) return left;
  return Math.max(0, left - (performance.now() - state.received));
}

function renderClocks() {
  const g = state.game;
  if (!g) return;
  const low = state.you || "red";
  const high = other(low);
  for (const [id, side] of [["clock-bottom", low], ["clock-top", high]]) {
    const box = $(id);
    const ms = shownClock(side);
    const name = g.players[side] || (state.you === side ? L.you : L.anonymous);
    box.textContent = "";
    const label = document.createElement("span");
    label.className = "clock-name";
    label.textContent = `${sideName(side)} · ${name}`;
    const time = document.createElement("span");
    time.className = "clock-time";
    time.dataset.testid = `clock-${side}`;
    time.textContent = clockText(ms);
    box.append(label, time);
    box.dataset.side = side;
    box.classList.toggle("running", g.clock.running === side);
    box.classList.toggle("low", ms < 10_000);
  }
  // the running clock at zero: the opponent claims the win, anyone else asks the server
  // (which judges the flag on any message); once per ply
  const running = g.clock.running;
  if (g.status === "playing" && running && shownClock(running) <= 0 && state.claimed !== g.ply) {
    state.claimed = g.ply;
    send(state.you === other(running) ? { type: "flag" } : { type: "state" });
  }
}

function renderMoves() {
  const list = $("moves");
  list.textContent = "";
  let row = null;
  state.game.moves.forEach((entry, index) => {
    const side = index % 2 === 0 ? "red" : "black";
    if (row === null || side === "red") {
      row = document.createElement("li");
      row.className = "move-row";
      const number = document.createElement("span");
      number.className = "move-number";
      number.textContent = `${Math.floor(index / 2) + 1}.`;
      row.append(number);
      list.append(row);
    }
    const item = document.createElement("span");
    item.className = "move-button";
    item.dataset.ply = String(index + 1);
    item.dataset.side = side;
    item.textContent = `${entry.chinese} (${entry.iccs})`;
    if (L.effects[entry.effect]) {
      item.textContent += ` · ${L.effects[entry.effect]}`;
      item.dataset.effect = entry.effect;
    }
    row.append(item);
  });
  $("move-box").hidden = state.game.moves.length === 0;
  const last = list.lastElementChild;
  if (last && last.scrollIntoView) last.scrollIntoView({ block: "nearest" });
}

function renderControls() {
  const g = state.game;
  const playing = g.status === "playing" && state.you !== null;
  $("game-controls").hidden = !playing && !(g.status === "waiting" && $("invite"));
  $("abort").hidden = !g.abortable || (state.you === null && !$("invite"));
  $("draw").hidden = !playing;
  $("resign").hidden = !playing;
  $("draw").disabled = Boolean(g.draw_offer && g.draw_offer.by === state.you);
  const offer = g.draw_offer;
  const panel = $("draw-panel");
  panel.hidden = !offer;
  if (offer) {
    const toMe = state.you !== null && offer.by !== state.you;
    $("draw-answer").hidden = !toMe;
    $("draw-text").textContent =
      offer.by === state.you
        ? L.draw_offered_by_you
        : toMe
          ? L.draw_offered_to_you
          : format(L.draw_offered, { side: sideName(offer.by) });
  }
  for (const id of ["invite", "accept-panel"]) {
    if ($(id)) $(id).hidden = g.status !== "waiting";
  }
}

// Once the game is over: a rematch offered (colours swapped), answered here; when it begins,
// both players go to its page and anyone watching gets its link.
function renderRematch() {
  const g = state.game;
  const over = g.status === "finished" || g.status === "aborted";
  const offer = g.rematch;
  const panel = $("rematch-panel");
  panel.hidden = !over || (state.you === null && !offer);
  if (panel.hidden) return;
  const mine = offer && offer.by === state.you;
  const toMe = offer && state.you !== null && offer.by !== state.you;
  $("rematch-offer").hidden = state.you === null || Boolean(offer);
  $("rematch-accept").hidden = !toMe || Boolean(offer.slug);
  $("rematch-decline").hidden = !toMe || Boolean(offer.slug);
  $("rematch-link").hidden = !(offer && offer.slug);
  let text = "";
  if (offer && offer.slug) {
    text = L.rematch_started;
    $("rematch-link").href = `/play/live/${offer.slug}/`;
    if (state.you !== null) window.location.assign(`/play/live/${offer.slug}/`);
  } else if (mine) text = L.rematch_offered_by_you;
  else if (toMe) text = L.rematch_offered_to_you;
  else if (offer) text = format(L.rematch_offered, { side: sideName(offer.by) });
  $("rematch-text").textContent = text;
  $("rematch-text").hidden = !text;
}

function render() {
  const g = state.game;
  const last = g.moves.length ? g.moves[g.moves.length - 1] : null;
  board.set({
    fen: g.fen,
    orientation: state.you || "red",
    movable: myTurn() ? state.you : null,
    dests: myTurn() ? g.legal_moves : [],
    lastMove: last ? last.iccs : null,
    check: g.check,
    shapes: [],
  });
  $("board").dataset.ply = String(g.ply);
  document.body.dataset.liveStatus = g.status;
  document.body.dataset.you = state.you || "";
  document.body.dataset.turn = g.turn;
  document.body.dataset.movable = myTurn() ? "1" : "0";
  renderStatus();
  renderMoves();
  renderControls();
  renderRematch();
  renderClocks();
}

setStatus(L.connecting, "thinking");
setInterval(renderClocks, 200);
connect();
