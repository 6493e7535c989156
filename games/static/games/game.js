// One game: set up (secret setups), play against the computer or at one board, replay.
// The page holds no rule: every move and every setup goes to the API, which asks the engine;
// a refused move comes back explained. While the computer thinks the page polls the game.
// A shared game (page.shared) is its replay only: the page calls no API.
import { api as call, format } from "../core/api.js";
import { copyLink } from "../core/copy.js";
import { placementFen } from "../core/notation.js";
import { arranged, arrangeDests, listViolations, startHalf } from "../core/setup.js";

const page = JSON.parse(document.getElementById("game-page").textContent);
const L = page.labels;
const { mountBoard } = await import(page.board_module);

const $ = (id) => document.getElementById(id);
const POLL_MS = 600;

const state = {
  game: page.game,
  view: null, // the ply shown while replaying; null: the live position
  placement: null, // the secret half being arranged (point -> letter)
  placementFor: null,
  violations: [],
  checkSeq: 0,
  busy: false,
  pollTimer: null,
  clockTimer: null,
  message: "",
};

const zh = document.documentElement.lang.toLowerCase().startsWith("zh");
const pick = (text) => (text ? (zh ? text.zh : text.en) : "");
const sideName = (side) => (side === "red" ? L.red : L.black);

// -- FEN helpers (display only) ---------------------------------------------------------

function width() {
  return state.game.variant === "feidan" ? 11 : 9;
}

function piecesFen(pieces, side = "w") {
  return placementFen((point) => pieces[point], width(), side);
}

// -- the board ----------------------------------------------------------------------------

function baseOrientation() {
  const g = state.game;
  // against the computer, and a live game's replay for one of its players: their own side
  if (g.mode === "computer" || g.mode === "live") return g.human_side;
  if (g.status === "setting_up") return g.setup_info.pending || "red";
  return "red";
}

function orientation() {
  const side = baseOrientation();
  if (!state.flipped || state.game.status === "setting_up") return side;
  return side === "red" ? "black" : "red";
}

const board = mountBoard($("board"), {
  variant: state.game.variant,
  fen: state.game.fen,
  orientation: orientation(),
  label: L.board,
  sound: true,
  onMove: (iccs) => onBoardMove(iccs),
  // the player's own clock stays in sight under the board
  fitBelow: [$("clock-bottom")],
});

function onBoardMove(iccs) {
  if (state.game.status === "setting_up") arrange(iccs);
  else play(iccs);
}

// -- status and panels ---------------------------------------------------------------------

function setStatus(text, kind) {
  const box = $("status");
  box.textContent = text;
  box.className = `status${kind ? ` status-${kind}` : ""}`;
  box.dataset.kind = kind || "";
  document.body.dataset.gameStatus = state.game.status;
}

// A finished game's result, as a result and not an error: who won from the player's side
// ("You won — checkmate"), then how the game ended, in its own calm box.
function showResult(g) {
  setStatus("", "over");
  const box = $("status");
  box.classList.add("status-result");
  if (g.outcome) box.classList.add(`status-${g.outcome.replace("_", "-")}`);
  box.dataset.outcome = g.outcome || "";
  const headline = document.createElement("strong");
  headline.className = "result-headline";
  headline.dataset.testid = "result-headline";
  headline.textContent = pick(g.headline) || "";
  const how = document.createElement("span");
  how.className = "result-ending";
  how.textContent = pick(g.ending) || "";
  box.append(headline, how);
}

function explain(text) {
  const box = $("explanation");
  box.textContent = text || "";
  box.hidden = !text;
}

function renderPlum() {
  const info = state.game.setup_info.plum_blossom;
  $("plum-panel").hidden = !info;
  if (!info) return;
  $("plum-title").textContent = L.plum_title;
  // the hexagram's English name is for English readers
  const english = zh ? "" : ` · ${info.hexagram_english}`;
  $("plum-hexagram").textContent = `${info.hexagram} · ${info.hexagram_pinyin}${english}`;
  const moment = new Date(info.moment).toLocaleString(zh ? "zh-CN" : "en-GB", {
    timeZone: "Asia/Shanghai",
  });
  $("plum-why").textContent = format(L.plum_why, {
    moment,
    lunar: info.lunar_date,
    y: info.year_branch,
    m: info.lunar_month,
    d: info.lunar_day,
    h: info.hour_branch,
    u: info.upper_number,
    ut: info.upper_trigram,
    l: info.lower_number,
    lt: info.lower_trigram,
    x: info.moving_line,
    hex: info.hexagram,
    gloss: zh ? info.hexagram_pinyin : `${info.hexagram_pinyin}, “${info.hexagram_english}”`,
    s: info.number,
    a: info.arrangement_index,
  });
}

function renderClock() {
  const clock = state.game.clock;
  const top = $("clock-top");
  const bottom = $("clock-bottom");
  top.hidden = bottom.hidden = !clock;
  if (!clock) return;
  const started = state.clockBase || Date.now();
  const shown = { red: clock.red_ms, black: clock.black_ms };
  if (clock.running && state.game.status === "playing") {
    shown[clock.running] = Math.max(0, shown[clock.running] - (Date.now() - started));
  }
  const text = (ms) => {
    const seconds = Math.ceil(ms / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  };
  const low = orientation();
  const high = low === "red" ? "black" : "red";
  bottom.textContent = `${sideName(low)} ${text(shown[low])}`;
  top.textContent = `${sideName(high)} ${text(shown[high])}`;
  bottom.classList.toggle("running", clock.running === low);
  top.classList.toggle("running", clock.running === high);
}

// -- setting up -----------------------------------------------------------------------------

function defaultHalf(color) {
  return startHalf(state.game.start_fen, color);
}

function arrange(iccs) {
  state.placement = arranged(state.placement, iccs);
  saveDraft();
  render();
  checkSetup();
}

async function checkSetup() {
  const seq = ++state.checkSeq;
  try {
    const answer = await call("POST", page.api.setup_check, {
      method: state.game.setup_info.method,
      color: state.placementFor,
      placement: state.placement,
    });
    if (seq !== state.checkSeq) return;
    state.violations = answer.violations;
  } catch (error) {
    state.violations = [{ point: null, code: "error", text: { zh: error.message, en: error.message } }];
  }
  renderViolations();
}

function renderViolations() {
  const list = $("violations");
  list.textContent = "";
  listViolations(list, state.violations, pick, L.setup_legal);
  $("setup-reveal").disabled = state.violations.length > 0 || state.busy;
  board.set({
    shapes: state.violations.filter((v) => v.point).map((v) => ({ at: v.point, brush: "red" })),
  });
}

// The half being arranged, kept in this tab (sessionStorage) until it is handed in, so that a
// reload of the game's page goes on with it. One key per game, side and attempt at the
// setup: a half handed in is forgotten, and at one board the other side's draft is never
// read (the server never sends a secret half before the reveal either).
function draftKey(color) {
  const info = state.game.setup_info;
  return `setup-draft:${state.game.id}:${color}:${info.round || 0}:${(info.void_reveals || []).length}`;
}

function saveDraft() {
  try {
    sessionStorage.setItem(draftKey(state.placementFor), JSON.stringify(state.placement));
  } catch (_error) {
    // storage refused (private mode, full): a reload starts the half again
  }
}

function loadDraft(color) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(draftKey(color)) || "null");
    return saved && typeof saved === "object" ? saved : null;
  } catch (_error) {
    return null;
  }
}

function forgetDraft(color) {
  try {
    sessionStorage.removeItem(draftKey(color));
  } catch (_error) {
    // nothing kept
  }
}

function renderSetup() {
  const g = state.game;
  const color = g.setup_info.pending;
  if (state.placementFor !== color || !state.placement) {
    state.placement = loadDraft(color) || defaultHalf(color);
    state.placementFor = color;
    state.violations = [];
    checkSetup();
  }
  $("setup-panel").hidden = false;
  $("setup-title").textContent = L.setup_title;
  // at one board Red sets up first and hands over; Black's half completes the pair
  const local = g.mode === "local";
  const first = local && color === "red";
  const help = !local ? L.setup_help : first ? L.setup_help_local : L.setup_help_local_second;
  $("setup-help").textContent = format(help, { side: sideName(color) });
  $("setup-reveal").textContent = first ? format(L.setup_hand_over, { side: sideName("black") }) : L.setup_ready;
  const voids = g.setup_info.void_reveals || [];
  const voidBox = $("void-reveal");
  voidBox.hidden = !voids.length;
  if (voids.length) voidBox.textContent = pick(voids[voids.length - 1].text); // says why it does not count
  board.set({
    fen: piecesFen(state.placement, color === "red" ? "w" : "b"),
    orientation: color,
    movable: color,
    dests: arrangeDests(state.placement, width()),
    lastMove: null,
    check: null,
  });
  renderViolations();
  setStatus(local ? format(L.setup_status_local, { side: sideName(color) }) : L.setup_status, "setup");
  for (const id of ["game-controls", "move-form", "replay-controls", "position-links", "move-box"]) {
    $(id).hidden = true;
  }
}

$("setup-reveal").addEventListener("click", async () => {
  if (state.busy) return;
  state.busy = true;
  $("setup-reveal").disabled = true;
  try {
    const before = (state.game.setup_info.void_reveals || []).length;
    const handed = state.placementFor;
    const game = await call("POST", page.api.setup, { placement: state.placement });
    forgetDraft(handed); // handed in (or void: the setup starts again under a new key)
    state.game = game;
    if ((game.setup_info.void_reveals || []).length === before) state.placementFor = null;
    explain("");
  } catch (error) {
    if (error.extra && error.extra.violations) state.violations = error.extra.violations;
    explain(error.message);
  } finally {
    state.busy = false;
  }
  render();
  schedulePoll();
});

// -- playing --------------------------------------------------------------------------------

function shownPly() {
  const n = state.game.moves.length;
  return state.view === null ? n : Math.max(0, Math.min(state.view, n));
}

function fenAt(ply) {
  return ply === 0 ? state.game.start_fen : state.game.moves[ply - 1].fen;
}

function isLive() {
  return shownPly() === state.game.moves.length;
}

function myTurn() {
  const g = state.game;
  if (g.status !== "playing" || !isLive()) return false;
  if (g.mode === "local") return true;
  return !g.thinking && g.turn === g.human_side;
}

function drawNote() {
  const g = state.game;
  const offer = g.draw_offer;
  if (!offer || g.mode !== "computer" || g.status !== "playing") return "";
  if (offer.accepted === null) {
    // offered while it thinks: answered once its move is made; else before its next move
    return g.thinking && offer.ply === g.moves.length ? L.draw_offered_thinking : L.draw_offered;
  }
  const answered = offer.answered_ply ?? offer.ply + 1;
  if (offer.accepted === false && g.moves.length <= answered + 1) return L.draw_declined;
  return "";
}

function renderComputerOffer() {
  const g = state.game;
  const offer = g.computer_draw_offer;
  const shown = Boolean(offer) && g.status === "playing" && isLive();
  $("computer-offer").hidden = !shown;
  $("offer-accept").disabled = state.busy;
  $("offer-decline").disabled = state.busy;
}

function moveLabel(ply) {
  const { n, side } = moveNumber(ply);
  return format(L.ply, { n, side: sideName(side) });
}

function renderStatus() {
  const g = state.game;
  $("draw-note").textContent = drawNote();
  $("draw-note").hidden = !drawNote();
  // replaying a finished game, its result stays in sight (at its last move the status says it)
  const result = $("result-line");
  result.hidden = g.status !== "finished" || isLive();
  result.textContent = result.hidden ? "" : format(L.result_line, { ending: pick(g.ending) });
  if (!isLive()) {
    const ply = shownPly();
    const where = ply === 0 ? L.start : moveLabel(ply);
    setStatus(format(L.replaying, { where, ply, total: g.moves.length }), "replay");
  } else if (g.status === "finished") {
    showResult(g);
  } else if (g.thinking) {
    setStatus(L.thinking, "thinking");
  } else if (g.mode === "computer") {
    setStatus(g.check ? L.check_your_turn : L.your_turn, g.check ? "check" : "your-turn");
  } else {
    const text = format(g.check ? L.check_to_move : L.to_move, { side: sideName(g.turn) });
    setStatus(text, g.check ? "check" : "your-turn");
  }
  $("board").dataset.thinking = g.thinking ? "1" : "0";
}

// Moves are numbered as players count them: "1. red black  2. red black …"; from a start
// with Black to move, Red's half of move 1 is left empty ("1. … black").
function blackStarts() {
  return (state.game.start_fen.split(" ")[1] || "w") === "b";
}

function moveNumber(ply) {
  // the move number of ply ``ply`` (1-based) and the side that played it
  const slot = ply - 1 + (blackStarts() ? 1 : 0);
  return { n: Math.floor(slot / 2) + 1, side: slot % 2 === 0 ? "red" : "black" };
}

function renderMoves() {
  const list = $("moves");
  list.textContent = "";
  const shown = shownPly();
  let row = null;
  state.game.moves.forEach((entry, index) => {
    const { n, side } = moveNumber(index + 1);
    if (row === null || side === "red") {
      row = document.createElement("li");
      row.className = "move-row";
      row.dataset.number = String(n);
      const number = document.createElement("span");
      number.className = "move-number";
      number.textContent = `${n}.`;
      row.append(number);
      if (side === "black") {
        const gap = document.createElement("span");
        gap.className = "move-gap";
        gap.textContent = "…";
        row.append(gap);
      }
      list.append(row);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move-button";
    button.textContent = `${entry.chinese} (${entry.iccs})`;
    if (L.effects[entry.effect]) {
      button.textContent += ` · ${L.effects[entry.effect]}`;
      button.dataset.effect = entry.effect;
    }
    button.dataset.ply = String(index + 1);
    button.dataset.side = side;
    if (index + 1 === shown) button.classList.add("current");
    button.addEventListener("click", () => showPly(index + 1));
    row.append(button);
  });
  const current = list.querySelector(".current");
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
}

function renderLinks() {
  const g = state.game;
  const ply = shownPly();
  const analysis = new URLSearchParams({ variant: g.variant, fen: g.start_fen });
  const moves = g.moves.slice(0, ply).map((m) => m.iccs);
  if (moves.length) analysis.set("moves", moves.join(","));
  $("analyse-link").href = `${page.links.analysis}?${analysis.toString()}`;
  const puzzle = new URLSearchParams({ variant: g.variant, fen: fenAt(ply) });
  $("puzzle-link").href = `${page.links.puzzle}?${puzzle.toString()}`;
  $("replay-ply").textContent = ply === 0 ? L.start : moveLabel(ply);
}

function renderControls() {
  const g = state.game;
  const playing = g.status === "playing";
  $("game-controls").hidden = !playing;
  $("move-form").hidden = !playing;
  $("replay-controls").hidden = false;
  $("move-box").hidden = g.moves.length === 0;
  $("position-links").hidden = false;
  $("takeback").hidden = !g.takeback_allowed;
  $("takeback").disabled = state.busy || g.moves.length === 0;
  // an offer may be made while the computer thinks: it is answered after its move
  $("draw").disabled = state.busy || g.draw_offered_this_ply;
  $("claim").hidden = !g.attack_power;
  $("claim").disabled = state.busy || !g.can_claim_draw;
  $("resign").disabled = state.busy;
  const power = $("attack-power");
  power.hidden = !g.attack_power;
  if (g.attack_power) {
    // the totals, and the rule that says when the button may be used
    power.textContent = format(L.attack_power, g.attack_power);
    const rule = document.createElement("span");
    rule.className = "attack-power-rule";
    rule.textContent = L.attack_power_rule;
    power.append(rule);
  }
}

function renderShare() {
  const panel = $("share-panel");
  if (!panel) return; // a shared game's page has none: the link is its owner's to give
  const g = state.game;
  panel.hidden = g.status !== "finished";
  const link = g.share_url ? new URL(g.share_url, window.location.origin).href : "";
  $("share").hidden = Boolean(link);
  $("share").disabled = state.busy;
  $("unshare").disabled = state.busy;
  $("share-box").hidden = !link;
  $("share-link").value = link;
}

function renderPlay() {
  const g = state.game;
  $("setup-panel").hidden = true;
  const ply = shownPly();
  const live = isLive();
  const last = ply > 0 ? g.moves[ply - 1] : null;
  board.set({
    fen: fenAt(ply),
    orientation: orientation(),
    movable: myTurn() ? (g.mode === "local" ? g.turn : g.human_side) : null,
    dests: myTurn() ? g.board_moves : [],
    lastMove: last ? last.iccs : null,
    check: live ? g.check : last ? last.check : null,
    shapes: [],
  });
  $("board").dataset.ply = String(ply);
  $("board").dataset.plies = String(g.moves.length);
  renderStatus();
  renderComputerOffer();
  renderMoves();
  renderLinks();
  renderControls();
  renderShare();
}

// What the page shows is told to the other modules of the page (the computer's analysis,
// games/static/games/analysis.js), which may ask for another ply ("game:goto").
function announce() {
  const detail = { ply: shownPly(), plies: state.game.moves.length, status: state.game.status };
  document.dispatchEvent(new CustomEvent("game:shown", { detail }));
}

// The wins missed in a finished game, mates and material (found by a background search after
// the game ends): each moment in words, a link to try it as a puzzle, and a button to show it
// on the board.
const MISSED_POLL_MS = 3000;
const MISSED_POLLS = 40;
const missed = { asked: false, polls: 0, timer: null };

async function loadMissed() {
  const panel = $("missed-panel");
  if (!panel || !page.api.missed || state.game.status !== "finished") return;
  missed.asked = true;
  let answer;
  try {
    answer = await call("GET", page.api.missed);
  } catch (error) {
    return; // the moments are extra: the replay works without them
  }
  panel.hidden = false;
  const list = $("missed-list");
  list.textContent = "";
  if (!answer.reviewed) {
    $("missed-status").textContent = L.missed_looking;
    if (missed.polls++ < MISSED_POLLS) missed.timer = setTimeout(loadMissed, MISSED_POLL_MS);
    return;
  }
  // what was looked for, and by which engine, after the verdict
  const said = [answer.results.length ? "" : L.missed_none, answer.looked || ""].filter(Boolean);
  $("missed-status").textContent = said.join(zh ? "" : " ");
  $("missed-status").dataset.lookedBy = answer.looked_by || "";
  for (const row of answer.results) {
    const item = document.createElement("li");
    item.dataset.testid = "missed-moment";
    item.dataset.ply = String(row.ply);
    const played = format(row.by_player ? L.missed_played_you : L.missed_played_computer, {
      move: row.played,
    });
    const text = document.createElement("p");
    text.textContent = zh ? `${row.text}${played}` : `${row.text} ${played}`;
    const buttons = document.createElement("div");
    buttons.className = "controls-row buttons";
    const link = document.createElement("a");
    link.href = row.url;
    link.textContent = L.missed_try;
    link.className = "button-small";
    link.dataset.testid = "missed-try";
    const show = document.createElement("button");
    show.type = "button";
    show.className = "button-small";
    show.textContent = L.missed_show;
    show.addEventListener("click", () => showPly(row.ply));
    buttons.append(link, show);
    item.append(text, buttons);
    list.append(item);
  }
}

function render() {
  if (!missed.asked && state.game.status === "finished") loadMissed();
  renderPlum();
  if (state.game.status === "setting_up") renderSetup();
  else renderPlay();
  state.clockBase = Date.now();
  renderClock();
  announce();
}

function showPly(ply) {
  state.view = ply >= state.game.moves.length ? null : ply;
  explain("");
  renderPlay();
  announce();
}

document.addEventListener("game:goto", (event) => {
  if (state.game.status === "finished") showPly(Math.max(0, Number(event.detail.ply) || 0));
});

async function send(url, body) {
  if (state.busy) return null;
  state.busy = true;
  explain("");
  try {
    const game = await call("POST", url, body);
    state.game = game;
    return game;
  } catch (error) {
    explain(error.message);
    if (error.status === 400 && error.extra && error.extra.code === "out_of_date") await refresh();
    return null;
  } finally {
    state.busy = false;
    render();
    schedulePoll();
  }
}

async function play(text) {
  state.view = null;
  await send(page.api.move, { move: text, ply: state.game.moves.length });
}

async function refresh() {
  try {
    state.game = await call("GET", page.api.detail);
  } catch (_error) {
    // a lost poll is retried by the next one
  }
}

function schedulePoll() {
  clearTimeout(state.pollTimer);
  if (state.game.thinking) {
    state.pollTimer = setTimeout(async () => {
      if (!state.busy) {
        const before = state.game.moves.length;
        await refresh();
        if (state.game.moves.length !== before && state.view !== null) state.view = null;
        render();
      }
      schedulePoll();
    }, POLL_MS);
  }
}

$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text) return;
  input.value = "";
  play(text);
});
// An ending that cannot be taken back: the first click asks, the second does it (`ask`:
// whether this click needs asking).
function confirmTwice(id, question, action, ask = () => true) {
  const button = $(id);
  let timer = null;
  let label = "";
  const disarm = () => {
    clearTimeout(timer);
    timer = null;
    button.textContent = label;
    delete button.dataset.armed;
  };
  button.addEventListener("click", () => {
    if (!ask()) {
      action();
    } else if (timer === null) {
      label = button.textContent;
      button.textContent = question;
      button.dataset.armed = "1";
      timer = setTimeout(disarm, 4000);
    } else {
      disarm();
      action();
    }
  });
}
confirmTwice("resign", L.resign_confirm, () => send(page.api.resign, {}));
// against the computer a draw is offered (it answers); at one board both players agree it
confirmTwice("draw", L.draw_agree_confirm, () => send(page.api.draw, {}), () => state.game.mode === "local");
$("takeback").addEventListener("click", () => send(page.api.takeback, {}));
$("claim").addEventListener("click", () => send(page.api.claim, {}));
$("offer-accept").addEventListener("click", () => send(page.api.draw_answer, { accept: true }));
$("offer-decline").addEventListener("click", () => send(page.api.draw_answer, { accept: false }));
if ($("share-panel")) {
  $("share").addEventListener("click", () => send(page.api.share, { share: true }));
  $("unshare").addEventListener("click", () => send(page.api.share, { share: false }));
  $("copy-link").addEventListener("click", () => copyLink($("share-link"), $("copy-link"), L.copied));
}
$("flip").addEventListener("click", () => {
  state.flipped = !state.flipped;
  render();
});
$("first").addEventListener("click", () => showPly(0));
$("prev").addEventListener("click", () => showPly(Math.max(0, shownPly() - 1)));
$("next").addEventListener("click", () => showPly(shownPly() + 1));
$("last").addEventListener("click", () => showPly(state.game.moves.length));
document.addEventListener("keydown", (event) => {
  if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
  if (event.target && event.target.closest && event.target.closest("#board")) return;
  if (state.game.status === "setting_up") return;
  if (event.key === "ArrowLeft") showPly(Math.max(0, shownPly() - 1));
  if (event.key === "ArrowRight") showPly(shownPly() + 1);
  // Home and End: the start and the last move, as the first and last buttons do.
  if (event.key === "Home" || event.key === "End") {
    event.preventDefault(); // not a scroll of the page
    showPly(event.key === "Home" ? 0 : state.game.moves.length);
  }
});

state.clockTimer = setInterval(async () => {
  const clock = state.game.clock;
  if (!clock || state.game.status !== "playing") return;
  renderClock();
  const left = clock.running ? clock[`${clock.running}_ms`] - (Date.now() - state.clockBase) : 1;
  if (left <= 0 && !state.busy && Date.now() - (state.flagAskedAt || 0) > 2000) {
    state.flagAskedAt = Date.now(); // the server ends the game on time when it sees the flag
    await refresh();
    render();
  }
}, 250);

window.addEventListener("pageshow", async (event) => {
  // back to a page kept in memory: read the game again (a shared game cannot change)
  if (!event.persisted || page.shared || !page.api.detail) return;
  await refresh();
  render();
  schedulePoll();
});

// A link may open a finished game at a ply (#ply=N): a puzzle's moment in its game.
const asked = /^#ply=(\d{1,4})$/.exec(window.location.hash);
if (asked && state.game.status === "finished") {
  const ply = Number(asked[1]);
  state.view = ply >= state.game.moves.length ? null : ply;
}

render();
schedulePoll();
window.gamePage = { state, board };
document.body.dataset.ready = "1";
