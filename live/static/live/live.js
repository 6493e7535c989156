// A live game between two people: the board, both clocks, the move list and the buttons.
// The page holds no rule and no clock of its own: the server judges every move and keeps the
// clocks; it sends the whole game on every connect (a reload or a reconnect goes on where the
// game stood) and after every change. The page counts the running clock down from the
// server's figure between two states, and says when it reaches zero.
// A feidan game with a secret setup begins with each player arranging their half here; the
// server sends a player their own half back once it is in, never the other's before the reveal.
import { api, format } from "../core/api.js";
import { copyLink } from "../core/copy.js";
import { placementFen } from "../core/notation.js";
import { arranged, arrangeDests, listViolations, startHalf } from "../core/setup.js";

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
  rematchAllowed: false, // whether the server lets this player offer or accept a rematch
  received: 0, // performance.now() when the state came: the running clock counts from it
  socket: null,
  retries: 0,
  connections: 0, // connections opened by this page (a reconnect adds one)
  claimed: null, // the ply at which this page said the running clock reached zero
  firstMoveAsked: null, // the ply at which this page said the first move's window had passed
  half: null, // my secret half as the server has it (handed in), while the game is set up
  placement: null, // my secret half being arranged (point -> letter), not handed in yet
  placementKey: null,
  violations: [],
  checkSeq: 0,
  awaySeen: {}, // side -> performance.now() when this page first saw the seat away
};

const BOARD_WIDTH = page.variant === "feidan" ? 11 : 9;

const board = mountBoard($("board"), {
  variant: page.variant,
  fen: page.setting_up ? placementFen(() => null, BOARD_WIDTH, "w") : page.start_fen,
  orientation: "red",
  label: page.board_label,
  sound: true,
  premove: false, // on while this player's game is played (render)
  onMove: (iccs) => (state.game && state.game.status === "setting_up" ? arrange(iccs) : play(iccs)),
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
    board.set({ movable: null, dests: [], premove: false });
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
  if (message.type === "probe") {
    // the server times its round trip to this page (the lag allowance): answered at once
    send({ type: "probe", id: message.id });
  } else if (message.type === "state") {
    state.game = message.game;
    state.you = message.you;
    state.half = message.half || null;
    state.rematchAllowed = message.rematch_allowed === true;
    state.received = performance.now();
    explain("");
    render();
  } else if (message.type === "error") {
    explain(pick(message.message));
    $("explanation").dataset.code = message.code;
    if (message.violations) {
      state.violations = message.violations;
      renderViolations();
    }
  }
}

// -- actions --------------------------------------------------------------------------------

function play(iccs) {
  const g = state.game;
  board.set({ movable: null, dests: [] });
  document.body.dataset.movable = "0";
  if (confirmingMoves()) {
    // shown on the board, sent once confirmed (a phone's slip of the finger is taken back)
    state.pending = { iccs, ply: g.ply };
    $("confirm-text").textContent = format(L.confirm_move, { move: iccs });
    $("confirm-panel").hidden = false;
    return;
  }
  // the board shows the move at once; the server's state confirms it (or puts it back)
  send({ type: "move", ply: g.ply, move: iccs });
}

// Move confirmation, for a phone's slip of the finger: off until the player turns it on (as on
// Lichess, where a fast game is not slowed by a second tap); the choice is kept in this browser.
const CONFIRM_KEY = "live-confirm-moves";
function confirmingMoves() {
  let stored = null;
  try {
    stored = window.localStorage.getItem(CONFIRM_KEY);
  } catch {
    // storage refused: the default
  }
  return stored === "on";
}
$("confirm-moves").checked = confirmingMoves();
$("confirm-moves").addEventListener("change", (event) => {
  try {
    window.localStorage.setItem(CONFIRM_KEY, event.target.checked ? "on" : "off");
  } catch {
    // not kept: the choice holds for this page
  }
});
function dropPending() {
  state.pending = null;
  $("confirm-panel").hidden = true;
}
$("confirm-move").addEventListener("click", () => {
  const pending = state.pending;
  dropPending();
  if (pending && pending.ply === state.game.ply && myTurn()) {
    send({ type: "move", ply: pending.ply, move: pending.iccs });
  } else {
    render();
  }
});
$("cancel-move").addEventListener("click", () => {
  dropPending();
  render(); // the position as it stands, the move to make again
});

$("resign").addEventListener("click", () => {
  if (window.confirm(L.confirm_resign)) send({ type: "resign" });
});
$("abort").addEventListener("click", () => send({ type: "abort" }));
$("draw").addEventListener("click", () => send({ type: "draw", action: "offer" }));
$("draw-accept").addEventListener("click", () => send({ type: "draw", action: "accept" }));
$("draw-decline").addEventListener("click", () => send({ type: "draw", action: "decline" }));
$("takeback").addEventListener("click", () => send({ type: "takeback", action: "offer" }));
$("takeback-accept").addEventListener("click", () => send({ type: "takeback", action: "accept" }));
$("takeback-decline").addEventListener("click", () => send({ type: "takeback", action: "decline" }));
$("claim").addEventListener("click", () => {
  if (window.confirm(L.confirm_claim)) send({ type: "claim", action: "attack_power" });
});
$("rematch-offer").addEventListener("click", () => send({ type: "rematch", action: "offer" }));
$("rematch-accept").addEventListener("click", () => send({ type: "rematch", action: "accept" }));
$("rematch-decline").addEventListener("click", () => send({ type: "rematch", action: "decline" }));
$("claim-win").addEventListener("click", () => send({ type: "claim", action: "win" }));
$("claim-draw").addEventListener("click", () => send({ type: "claim", action: "draw" }));
const copy = $("copy-link");
if (copy) copy.addEventListener("click", () => copyLink($("share-link"), copy, "✓"));

// -- a secret setup -------------------------------------------------------------------------

function piecesFen(pieces, side) {
  return placementFen((point) => pieces[point], BOARD_WIDTH, side === "black" ? "b" : "w");
}

// The half being arranged is kept in this tab (sessionStorage) until it is handed in, so that
// a reload goes on with it: one key per game, side and round of the setup.
function draftKey() {
  const g = state.game;
  return `live-setup:${g.slug}:${state.you}:${g.setup_info.round}`;
}

function saveDraft() {
  try {
    sessionStorage.setItem(draftKey(), JSON.stringify(state.placement));
  } catch (_error) {
    // storage refused: a reload starts the half again
  }
}

function loadDraft() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(draftKey()) || "null");
    return saved && typeof saved === "object" ? saved : null;
  } catch (_error) {
    return null;
  }
}

function arrange(iccs) {
  if (!state.placement || state.half) return;
  state.placement = arranged(state.placement, iccs);
  saveDraft();
  render();
  checkSetup();
}

// Whether the half is legal as it is arranged: the engine's rules, asked of the server.
async function checkSetup() {
  const seq = ++state.checkSeq;
  try {
    const answer = await api("POST", page.setup_check, {
      method: state.game.setup_info.method,
      color: state.you,
      placement: state.placement,
    });
    if (seq !== state.checkSeq) return;
    state.violations = answer.violations;
  } catch (error) {
    if (seq !== state.checkSeq) return;
    state.violations = [{ point: null, code: "error", text: { zh: error.message, en: error.message } }];
  }
  renderViolations();
}

function renderViolations() {
  const list = $("violations");
  list.textContent = "";
  const arranging = state.placement !== null && !state.half;
  list.hidden = !arranging;
  listViolations(list, state.violations, pick, L.setup_legal);
  $("setup-send").disabled = state.violations.length > 0 || !connected();
  if (arranging) {
    board.set({
      shapes: state.violations.filter((v) => v.point).map((v) => ({ at: v.point, brush: "red" })),
    });
  }
}

$("setup-send").addEventListener("click", () => {
  if (state.placement && !state.half) send({ type: "setup", placement: state.placement });
});

function renderSetup() {
  const g = state.game;
  const info = g.setup_info;
  const player = state.you !== null;
  const opponentIn = player && info.ready[other(state.you)];
  $("setup-panel").hidden = false;
  $("setup-help").hidden = !player || Boolean(state.half);
  $("setup-help").textContent = `${L.setup_help} ${L.setup_window}`;
  const voids = info.void_reveals || [];
  $("void-reveal").hidden = !voids.length;
  if (voids.length) $("void-reveal").textContent = pick(voids[voids.length - 1].text);
  $("setup-ready").textContent = player
    ? opponentIn
      ? L.setup_opponent_in
      : L.setup_opponent_not_in
    : format(L.setup_sides_in, {
        sides: ["red", "black"].filter((side) => info.ready[side]).map(sideName).join(", ") || "—",
      });
  $("setup-send").hidden = !player || Boolean(state.half);
  let shown = {}; // a spectator sees no piece until the reveal
  if (state.half) {
    shown = state.half;
    state.placement = null;
    state.placementKey = null;
  } else if (player) {
    if (state.placementKey !== draftKey() || !state.placement) {
      state.placementKey = draftKey();
      state.placement = loadDraft() || startHalf(g.start_fen, state.you);
      state.violations = [];
      checkSetup();
    }
    shown = state.placement;
  }
  const arranging = player && !state.half;
  board.set({
    fen: piecesFen(shown, state.you || "red"),
    orientation: state.you || "red",
    movable: arranging && connected() ? state.you : null,
    premove: false,
    dests: arranging ? arrangeDests(state.placement, BOARD_WIDTH) : [],
    lastMove: null,
    check: null,
    shapes: [],
  });
  document.body.dataset.movable = arranging && connected() ? "1" : "0";
  renderViolations();
  const text = !player ? L.setup_watching : state.half ? L.setup_waiting : L.setup_yours;
  setStatus(text, "setup");
  $("seat").textContent = player ? format(L.you_play, { side: sideName(state.you) }) : L.watching;
}

function renderPlum() {
  const info = state.game.setup_info && state.game.setup_info.plum_blossom;
  $("plum-panel").hidden = !info;
  if (!info) return;
  const english = zh ? "" : ` · ${info.hexagram_english}`;
  $("plum-hexagram").textContent = format(L.plum_hexagram, {
    lunar: info.lunar_date,
    hexagram: `${info.hexagram} · ${info.hexagram_pinyin}${english}`,
  });
}

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
    const late = g.termination === "no_first_move" && g.ended_by;
    let said = late ? format(L.aborted_no_first_move, { side: sideName(g.ended_by) }) : L.aborted;
    if (g.termination === "setup_abandoned") {
      said = g.ended_by
        ? format(L.aborted_setup_abandoned_by, { side: sideName(g.ended_by) })
        : L.aborted_setup_abandoned;
    }
    setStatus(said, "over");
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

// A rated game's rating beside a player's name: "1500?" while provisional (as on Lichess),
// and once the game is rated, the change ("+12").
function signed(change) {
  return change > 0 ? `+${change}` : change < 0 ? `\u2212${-change}` : "\u00b10";
}

function ratingSpan(side, rating, change) {
  const span = document.createElement("span");
  span.className = "clock-rating";
  span.dataset.testid = `rating-${side}`;
  span.textContent = `${rating.rating}${rating.provisional ? "?" : ""}`;
  span.title = rating.provisional ? `\u00b1${rating.deviation} \u00b7 ${L.provisional}` : `\u00b1${rating.deviation}`;
  if (change !== undefined && change !== null) {
    const diff = document.createElement("span");
    diff.className = `rating-change ${change > 0 ? "up" : change < 0 ? "down" : ""}`;
    diff.dataset.testid = `rating-change-${side}`;
    diff.textContent = ` ${signed(change)}`;
    span.append(diff);
  }
  return span;
}

// Once a rated game is over: my new rating and its change, in the side panel.
function renderRatingChange() {
  const g = state.game;
  const box = $("rating-change");
  const side = state.you;
  const change = g.rating_change && side ? g.rating_change[side] : null;
  box.hidden = change === null || change === undefined;
  if (box.hidden) return;
  const rating = g.ratings[side];
  box.textContent = format(L.rating_change, {
    rating: `${rating.rating}${rating.provisional ? "?" : ""}`,
    change: signed(change),
  });
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
    box.append(label);
    const rating = g.ratings && g.ratings[side];
    if (rating) box.append(ratingSpan(side, rating, g.rating_change && g.rating_change[side]));
    box.append(time);
    box.dataset.side = side;
    box.classList.toggle("running", g.clock.running === side);
    box.classList.toggle("low", ms < 10_000);
  }
  renderFirstMove();
  renderAway();
  // the running clock at zero: the opponent claims the win, anyone else asks the server
  // (which judges the flag on any message); once per ply
  const running = g.clock.running;
  if (g.status === "playing" && running && shownClock(running) <= 0 && state.claimed !== g.ply) {
    state.claimed = g.ply;
    send(state.you === other(running) ? { type: "flag" } : { type: "state" });
  }
}

// The first move's window, counted down from the server's figure; when it has passed the page
// asks for the state (the server aborts the game on any message then), once per ply.
function renderFirstMove() {
  const g = state.game;
  const box = $("first-move");
  const first = g.status === "playing" ? g.first_move : null;
  box.hidden = !first;
  if (!first) return;
  const left = Math.max(0, first.ms - (performance.now() - state.received));
  const seconds = Math.ceil(left / 1000);
  box.textContent =
    state.you === first.side
      ? format(L.first_move_yours, { seconds })
      : format(L.first_move_theirs, { side: sideName(first.side), seconds });
  if (left <= 0 && state.firstMoveAsked !== g.ply) {
    state.firstMoveAsked = g.ply;
    send({ type: "state" });
  }
}

// A player who has left (no connection to the game for a while, as the server records it):
// the opponent is shown the countdown to when they may claim the win or a draw, then the
// buttons; a spectator is shown who left. The server judges the claim from its own records.
// A seat is shown away once it has been away a moment here (AWAY_SHOWN_AFTER): a reload, or
// a second tab answering for its player, brings it back before the page says anything.
const AWAY_SHOWN_AFTER = 1500;

function renderAway() {
  const g = state.game;
  const now = performance.now();
  const reported = g.status === "playing" && g.away ? g.away : {};
  for (const side of Object.keys(state.awaySeen)) {
    if (!(side in reported)) delete state.awaySeen[side];
  }
  const away = {};
  for (const [side, ms] of Object.entries(reported)) {
    if (!(side in state.awaySeen)) state.awaySeen[side] = now;
    if (now - state.awaySeen[side] >= AWAY_SHOWN_AFTER) away[side] = ms;
  }
  const panel = $("away-panel");
  const leaver = state.you !== null ? (other(state.you) in away ? other(state.you) : null) : null;
  const sides = state.you !== null ? (leaver ? [leaver] : []) : Object.keys(away);
  panel.hidden = sides.length === 0;
  document.body.dataset.away = sides.join(" ");
  if (panel.hidden) return;
  $("away-text").textContent = leaver
    ? L.opponent_left
    : sides.map((side) => format(L.side_left, { side: sideName(side) })).join(" ");
  const left = leaver ? Math.max(0, away[leaver] - (performance.now() - state.received)) : 0;
  $("away-count").hidden = !leaver;
  $("away-count").textContent =
    left > 0 ? format(L.claim_in, { seconds: Math.ceil(left / 1000) }) : L.claim_now;
  $("claim-buttons").hidden = !leaver || left > 0 || !connected();
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
  const settingUp = g.status === "setting_up" && state.you !== null;
  $("game-controls").hidden = !playing && !settingUp && !(g.status === "waiting" && $("invite"));
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
  renderTakeback(playing);
  renderAttackPower(playing);
  for (const id of ["invite", "accept-panel"]) {
    if ($(id)) $(id).hidden = g.status !== "waiting";
  }
}

// A takeback: asked for by a player (their own last move), answered by the other; everyone,
// spectators too, is shown the request standing, a refusal at this ply and a takeback made.
function renderTakeback(playing) {
  const g = state.game;
  const you = state.you;
  $("takeback").hidden = !playing;
  $("takeback").disabled = !(you && g.takeback_allowed && g.takeback_allowed[you]);
  const offer = g.takeback_offer;
  const declined = g.takeback_declined || [];
  const last = g.takeback_last;
  let text = "";
  const toMe = Boolean(offer && you !== null && offer.by !== you);
  if (offer) {
    text =
      offer.by === you
        ? L.takeback_offered_by_you
        : toMe
          ? offer.plies === 2
            ? L.takeback_offered_to_you_2
            : L.takeback_offered_to_you
          : format(L.takeback_offered, { side: sideName(offer.by) });
  } else if (declined.length) {
    const side = declined.includes(you) ? you : declined[0];
    text = side === you ? L.takeback_declined_yours : format(L.takeback_declined, { side: sideName(side) });
  } else if (last) {
    text = last.by === you ? L.takeback_made_yours : format(L.takeback_made, { side: sideName(last.by) });
  }
  $("takeback-panel").hidden = g.status !== "playing" || !text;
  $("takeback-panel").dataset.state = offer ? "offered" : declined.length ? "declined" : last ? "made" : "";
  $("takeback-text").textContent = text;
  $("takeback-answer").hidden = !toMe;
}

// Xinban: each side's attack power, and a button to claim the draw it allows, enabled when the
// server says this player may (on their turn, both below the limit, theirs not the lower).
function renderAttackPower(playing) {
  const g = state.game;
  const power = g.attack_power;
  const box = $("attack-power");
  box.hidden = !power || g.status === "setting_up";
  $("claim").hidden = !power || !playing;
  $("claim").disabled = !(connected() && state.you !== null && g.attack_power_claim === state.you);
  if (!power) return;
  box.textContent = format(L.attack_power, power);
  const rule = document.createElement("span");
  rule.className = "attack-power-rule";
  rule.textContent = format(L.attack_power_rule, power);
  box.append(rule);
}

// Once the game is over: a rematch offered (colours swapped), answered here; when it begins,
// both players go to its page and anyone watching gets its link. The server says whether this
// player may offer or accept one (not when either player has blocked the other): otherwise
// neither button is shown, and an offer made before stays open to a decline only.
function renderRematch() {
  const g = state.game;
  const over = g.status === "finished" || g.status === "aborted";
  const offer = g.rematch;
  const allowed = state.rematchAllowed;
  const panel = $("rematch-panel");
  panel.hidden = !over || (!offer && (state.you === null || !allowed));
  if (panel.hidden) return;
  const mine = offer && offer.by === state.you;
  const toMe = offer && state.you !== null && offer.by !== state.you;
  $("rematch-offer").hidden = state.you === null || Boolean(offer) || !allowed;
  $("rematch-accept").hidden = !toMe || Boolean(offer.slug) || !allowed;
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
  document.body.dataset.liveStatus = g.status;
  document.body.dataset.you = state.you || "";
  renderPlum();
  if (g.status === "setting_up") {
    renderSetup();
    renderMoves();
    renderControls();
    renderClocks();
    return;
  }
  $("setup-panel").hidden = true;
  state.placement = null;
  $("confirm-choice").hidden = state.you === null || g.status !== "playing";
  if (state.pending && (state.pending.ply !== g.ply || !myTurn())) dropPending();
  if (state.pending) {
    // a move waiting for its confirmation stays on the board while other news comes in
    renderStatus();
    renderMoves();
    renderControls();
    renderClocks();
    return;
  }
  const last = g.moves.length ? g.moves[g.moves.length - 1] : null;
  // During the opponent's turn a player may premove: the board keeps it and plays it as soon
  // as the turn comes, if it is legal then (otherwise it is let go).
  const premoving = connected() && g.status === "playing" && state.you !== null;
  board.set({
    fen: g.fen,
    orientation: state.you || "red",
    movable: myTurn() || premoving ? state.you : null,
    dests: myTurn() ? g.legal_moves : [],
    lastMove: last ? last.iccs : null,
    check: g.check,
    shapes: [],
    premove: premoving,
  });
  if (!premoving) board.cancelPremove();
  $("board").dataset.ply = String(g.ply);
  document.body.dataset.liveStatus = g.status;
  document.body.dataset.you = state.you || "";
  document.body.dataset.turn = g.turn;
  document.body.dataset.movable = myTurn() ? "1" : "0";
  if (myTurn()) board.playPremove(); // heard as a move made on the board (play)
  renderStatus();
  renderMoves();
  renderControls();
  renderRematch();
  renderRatingChange();
  renderClocks();
  // the game's replay with the player's missed wins and the computer's analysis: its players'
  $("after-game").hidden = state.you === null || g.status !== "finished";
  // an account may block its opponent once the game is over (the panel is the page's own);
  // a challenger's page, made before anyone accepted, names the opponent from the game
  const blockPanel = $("block-panel");
  if (blockPanel) {
    const named = blockPanel.querySelector("[data-label]");
    const opponent = state.you ? g.players[state.you === "red" ? "black" : "red"] : null;
    if (named && opponent) named.textContent = named.dataset.label.replace("{name}", opponent);
    const over = ["finished", "aborted"].includes(g.status);
    blockPanel.hidden = !over || Boolean(named && !opponent);
    // a rematch allowed means neither player blocks the other: a block lifted on the profile
    // (in another tab) brings the Block button back here without a reload
    if (state.rematchAllowed === true) {
      $("block-blocked").hidden = true;
      $("block-offer").hidden = false;
    }
  }
}

setStatus(L.connecting, "thinking");
setInterval(renderClocks, 200);
connect();
