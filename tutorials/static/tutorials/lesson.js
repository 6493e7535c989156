// The lesson player: shows one step at a time on the shared board and sends what the learner
// does (moves, a clicked point, a setup) to the server, which judges it with the engine.
// Nothing is decided here: the page only shows the server's answer.

import { ApiError, api } from "../core/api.js";
import { placementFen } from "../core/notation.js";

const page = JSON.parse(document.getElementById("lesson-page").textContent);
const { mountBoard, iccsToKey, attachMoveInput } = await import(page.board_module);

const lesson = page.lesson;
const labels = page.labels;
const $ = (id) => document.getElementById(id);
const MOVE_GOALS = page.move_goals; // the goals answered with moves (tutorials/curriculum/schema.py)

let step = null; // the step shown
let moves = []; // the learner's accepted moves on this try
let fen = ""; // the position shown (learner to move)
let legal = [];
let over = false; // the step is complete or failed: no more input until retry
let busy = false;
let placement = {}; // setup steps: point -> letter (Red's half)

// Every move the learner can try on a move step: each of the learner's pieces to every point not
// held by their own side, whatever its pattern. The server answers each one (the move, or why
// it cannot be played), so no try snaps back without a word. Dropping a piece onto one of your
// own pieces is answered too (see the drop watch below); a click on your own piece picks it up.
const FILES = "abcdefghijk";
function ownPoints(fenText, side) {
  const rows = fenText.split(" ")[0].split("/");
  const own = new Set();
  let width = 0;
  rows.forEach((row, index) => {
    const rank = rows.length - 1 - index;
    let file = 0;
    for (const token of row.match(/\d+|\+?[A-Za-z]/g) || []) {
      if (/^\d/.test(token)) {
        file += Number(token);
        continue;
      }
      const letter = token[token.length - 1];
      if ((letter === letter.toUpperCase()) === (side === "red")) own.add(FILES[file] + rank);
      file += 1;
    }
    width = Math.max(width, file);
  });
  return { own, width, height: rows.length };
}

function everyTry(fenText) {
  const { own, width, height } = ownPoints(fenText, step.learner);
  const out = [];
  for (const from of own) {
    for (let file = 0; file < width; file++) {
      for (let rank = 0; rank < height; rank++) {
        const to = FILES[file] + rank;
        if (!own.has(to)) out.push(from + to);
      }
    }
  }
  return out;
}

const board = mountBoard($("board"), {
  variant: lesson.steps[0].variant,
  fen: lesson.steps[0].fen,
  orientation: lesson.steps[0].orientation,
  movable: null,
  coordinates: lesson.coordinates, // ICCS letters and digits, for lessons that name points
  onMove: (iccs) => onBoardMove(iccs),
});
board.ground.set({ movable: { showDests: false }, events: { select: (key) => onSelect(key) } });

// A failed exchange (no answer, or a server error): `lost` is set, and the page offers to send
// the same answer again (see offerResend) instead of leaving the learner stuck.
function lostAnswer(message) {
  return { ok: false, lost: true, data: { error: { message, extra: {} } } };
}

async function post(kind, body) {
  const url = page.api[kind].replace("KEY", encodeURIComponent(step.key));
  try {
    return { ok: true, lost: false, data: await api("POST", url, body) };
  } catch (error) {
    if (!(error instanceof ApiError)) return lostAnswer(labels.network); // no answer at all
    if (error.illegal) return { ok: false, lost: false, data: error.data }; // the rules' reason
    if (error.status < 300) return lostAnswer(labels.network); // an answer cut short
    if (error.status >= 500 || !(error.data.error && error.data.error.message)) return lostAnswer(labels.server_error);
    return { ok: false, lost: false, data: error.data }; // the server's reason, coded
  }
}

// --- an answer that did not arrive ------------------------------------------------------------

const resend = document.createElement("button");
resend.type = "button";
resend.id = "resend";
resend.className = "button";
resend.textContent = labels.resend;
resend.hidden = true;
$("retry").before(resend);
let pending = null; // what to send again

function offerResend(message, again) {
  pending = again;
  setStatus(message, "error");
  document.body.dataset.result = "lost";
  resend.hidden = false;
  showButtons();
}

function clearResend() {
  pending = null;
  resend.hidden = true;
}

resend.addEventListener("click", () => {
  const again = pending;
  clearResend();
  if (again) again();
});

// --- what is shown ------------------------------------------------------------------------------

function setStatus(text, kind) {
  const status = $("status");
  status.textContent = text || "";
  status.className = "status" + (kind ? ` status-${kind}` : "");
  status.dataset.kind = kind || "";
}

function starsText(count) {
  return "★".repeat(count) + "☆".repeat(3 - count);
}

function showStars(count) {
  const stars = $("stars");
  stars.dataset.stars = String(count);
  stars.textContent = starsText(count);
  stars.title = `${count} ${labels.stars}`;
}

function showCounter() {
  if (step.par) {
    const limit = step.within ? `/${step.within}` : ""; // an endgame: the moves the learner has
    $("counter").textContent = `${labels.moves} ${moves.length}${limit} · ${labels.par} ${step.par}`;
  } else {
    $("counter").textContent = "";
  }
}

let shapesNow = []; // the marks drawn for the current state (ICCS)

function toCg(shapes) {
  return shapes.map((shape) =>
    shape.at
      ? { orig: iccsToKey(shape.at), brush: shape.brush }
      : { orig: iccsToKey(shape.from), dest: iccsToKey(shape.to), brush: shape.brush },
  );
}

function targetShapes(remaining) {
  const shapes = (remaining || []).map((at) => ({ at, brush: "green" }));
  for (const at of step.marks) shapes.push({ at, brush: "yellow" });
  for (const move of step.arrows) shapes.push({ from: move.slice(0, 2), to: move.slice(2, 4), brush: "blue" });
  shapesNow = shapes;
  return shapes;
}

function markDot(key, done) {
  const dot = document.querySelector(`.step-dot[data-step="${key}"]`);
  if (dot && done) dot.classList.add("done");
}

function setCurrentDot() {
  for (const dot of document.querySelectorAll(".step-dot")) {
    dot.classList.toggle("current", dot.dataset.step === step.key);
    dot.setAttribute("aria-current", dot.dataset.step === step.key ? "step" : "false");
  }
}

// The Missile Xiangqi board of a setup step: my half over the revealed black half, if any.
function setupFen(half, blackHalf) {
  const all = { ...(blackHalf || {}), ...half };
  return placementFen((point) => all[point], 11, "w");
}

// The step is done: its stars shown, its dot marked, the success said.
function stepCompleted(data) {
  over = true;
  step.completedNow = true;
  step.completed = true;
  showStars(data.progress.stars);
  markDot(step.key, true);
  setStatus(data.message.text, "success");
  document.body.dataset.result = "complete";
}

function showButtons() {
  const index = lesson.steps.indexOf(step);
  const last = index === lesson.steps.length - 1;
  const complete = step.completedNow;
  $("next").hidden = !(complete && !last);
  $("next-lesson").hidden = !(complete && last && lesson.next_lesson);
  $("back-to-map").hidden = !(complete && last && !lesson.next_lesson);
  // The end of a course: a game against the computer, in the course's variant, at the level the
  // lesson suggests.
  const play = $("play-computer");
  play.hidden = !(complete && step.play_level);
  if (step.play_level) {
    play.href = `${play.pathname}?variant=${encodeURIComponent(lesson.course)}&level=${step.play_level}`;
    play.textContent = play.dataset.label.replace("{level}", step.play_level);
  }
  // A kill pattern's or a tactic's lesson: the puzzle trainer on that theme, in the course's
  // variant.
  const practise = $("practise-theme");
  practise.hidden = !(complete && step.practise_theme);
  if (step.practise_theme) {
    const query = new URLSearchParams({ variant: lesson.course, themes: step.practise_theme });
    practise.href = `${practise.pathname}?${query}`;
    practise.dataset.kind = step.practise_kind;
    practise.textContent =
      step.practise_kind === "tactic" ? practise.dataset.tacticLabel : practise.dataset.patternLabel;
  }
  $("retry").hidden = !over && moves.length === 0 && step.goal !== "setup" && !pending;
  $("hint").hidden = !step.hint || complete; // no hint once the step is done
}

function showStep(next) {
  clearResend();
  step = next;
  step.completedNow = false;
  moves = [];
  over = false;
  fen = step.fen;
  legal = step.legal;
  const isMoves = MOVE_GOALS.includes(step.goal);
  $("step-title").textContent = labels.step_of
    .replace("%(n)s", step.number)
    .replace("%(total)s", lesson.steps.length);
  $("instruction").textContent = step.instruction;
  $("ruling").hidden = !step.ruling;
  $("ruling").textContent = step.ruling || "";
  $("caption").hidden = !step.caption;
  $("caption").textContent = step.caption || "";
  $("violations").hidden = true;
  $("violations").textContent = "";
  $("setup-tools").hidden = step.goal !== "setup";
  $("move-form").hidden = step.goal === "setup" || step.goal === "write";
  $("write-form").hidden = step.goal !== "write";
  $("write-input").value = "";
  setStatus(
    step.goal === "point" ? labels.click_point : step.goal === "setup" ? labels.arrange : labels.your_turn,
    "",
  );
  showStars(step.stars || 0);
  showCounter();
  setCurrentDot();
  document.body.dataset.step = step.key;
  document.body.dataset.goal = step.goal;
  document.body.dataset.result = "";
  document.body.dataset.notice = "";
  const url = new URL(window.location.href);
  url.searchParams.set("step", step.key);
  window.history.replaceState(null, "", url);

  if (step.goal === "setup") {
    placement = { ...step.placement };
    board.ground.set({ movable: { free: true, showDests: false } });
    board.set({
      fen: setupFen(placement, step.black_half),
      orientation: "red",
      movable: "red",
      dests: [],
      lastMove: null,
      check: null,
      shapes: [],
    });
  } else {
    board.ground.set({ movable: { free: false, showDests: false } });
    board.set({
      fen: step.fen,
      orientation: step.orientation,
      movable: isMoves ? step.learner : null,
      dests: isMoves ? everyTry(step.fen) : [],
      lastMove: null,
      check: step.check,
      shapes: targetShapes(step.targets),
    });
  }
  showButtons();
}

// --- moves ---------------------------------------------------------------------------------------

function boardAfter(result) {
  board.set({
    fen: result.fen,
    movable: result.status === "playing" ? step.learner : null,
    dests: result.status === "playing" ? everyTry(result.fen) : [],
    lastMove: result.last_move,
    check: result.check,
    shapes: targetShapes(result.remaining),
  });
}

async function onBoardMove(iccs) {
  if (step.goal === "setup") return onSetupMove(iccs);
  if (!MOVE_GOALS.includes(step.goal) || over || busy) return;
  clearResend();
  busy = true;
  document.body.dataset.busy = "1";
  const { ok, lost, data } = await post("moves", { moves: [...moves, iccs] });
  busy = false;
  document.body.dataset.busy = "";
  if (lost) {
    // Nothing came back: put the piece back and offer to send the same move again.
    board.set({ fen, dests: everyTry(fen) });
    offerResend(data.error.message, () => onBoardMove(iccs));
    return;
  }
  if (!ok) {
    // Refused: put the piece back and say why.
    board.set({ fen, dests: everyTry(fen) });
    setStatus(data.error.message, "error");
    document.body.dataset.result = "refused";
    document.body.dataset.refusal = (data.error.extra && data.error.extra.code) || "";
    return;
  }
  moves.push(iccs);
  fen = data.fen;
  legal = data.legal;
  step.tries = data.tries;
  const reply = data.plies.length > 1 && data.plies[data.plies.length - 1].by === "opponent"
    ? data.plies[data.plies.length - 1]
    : null;
  if (reply) {
    // Show the learner's move first, then the reply.
    const mine = data.plies[data.plies.length - 2];
    board.set({ fen: mine.fen, movable: null, dests: [], lastMove: mine.iccs, check: null });
    await new Promise((resolve) => setTimeout(resolve, 350));
  }
  boardAfter(data);
  showCounter();
  if (data.status === "complete") {
    step.stars = data.progress.best_stars;
    stepCompleted(data);
  } else if (data.status === "failed") {
    over = true;
    document.body.dataset.threat = data.threat || "";
    if (data.threat) {
      // A piece left hanging: the capture that takes it for free, drawn in red.
      const threat = { from: data.threat.slice(0, 2), to: data.threat.slice(2, 4), brush: "red" };
      board.set({ shapes: [...shapesNow, threat] });
    }
    setStatus(data.message.text, "failed");
    document.body.dataset.result = "failed";
  } else {
    const text = reply
      ? labels.opponent_move.replace("{move}", reply.chinese).replace("{iccs}", reply.iccs)
      : labels.your_turn;
    // Past par the server says so (finish for fewer stars, or try again for three).
    setStatus(data.message ? `${text} ${data.message.text}` : text, data.message ? "hint" : "");
    document.body.dataset.result = "playing";
    document.body.dataset.notice = data.message ? data.message.code : "";
  }
  showButtons();
}

// A piece dragged onto one of the learner's own pieces: the board does not move it (a click
// there picks that piece up instead), so the try is sent here and the server says why not.
function watchOwnDrops(event) {
  const current = board.ground.state.draggable.current;
  if (!current || !current.started || over || busy || !MOVE_GOALS.includes(step.goal)) return;
  const from = current.orig;
  const to = board.ground.getKeyAtDomPos(current.pos);
  if (!to || to === from || event.type === "touchcancel") return;
  const { own } = ownPoints(fen, step.learner);
  const iccs = keyPoint(from) + keyPoint(to);
  if (!own.has(iccs.slice(2, 4))) return; // the board itself plays every other drop
  setTimeout(() => onBoardMove(iccs), 0);
}
for (const type of ["mouseup", "touchend"]) window.addEventListener(type, watchOwnDrops, { capture: true });

// --- points ------------------------------------------------------------------------------------

function keyPoint(key) {
  const rank = "123456789:".indexOf(key[1]);
  return key[0] + String(rank);
}

let hintShown = false;

function onSelect(key) {
  if (!step) return;
  const point = keyPoint(key);
  if (step.goal === "point") {
    answer(point);
    return;
  }
  if (MOVE_GOALS.includes(step.goal) && step.hints && !over) {
    const rings = legal.filter((m) => m.startsWith(point)).map((m) => ({ at: m.slice(2, 4), brush: "blue" }));
    if (rings.length || hintShown) board.ground.setAutoShapes(toCg(shapesNow.concat(rings)));
    hintShown = rings.length > 0;
  }
}

async function answer(point) {
  if (over && step.completedNow) {
    // The question is answered: another click is not judged again.
    setStatus(labels.step_done, "hint");
    return;
  }
  if (over || busy) return;
  clearResend();
  busy = true;
  const body = { point };
  if (step.moment) body.moment = step.moment;
  const { ok, lost, data } = await post("answer", body);
  busy = false;
  if (lost) {
    offerResend(data.error.message, () => answer(point));
    return;
  }
  if (!ok) {
    setStatus(data.error.message, "error");
    return;
  }
  if (data.correct) {
    board.set({ shapes: data.answers.map((at) => ({ at, brush: "green" })) });
    stepCompleted(data);
  } else {
    board.set({ shapes: [{ at: point, brush: "red" }] });
    setStatus(data.message.text, "failed");
    document.body.dataset.result = "wrong";
  }
  showButtons();
}

// --- setups ------------------------------------------------------------------------------------

function onSetupMove(iccs) {
  const from = iccs.slice(0, 2);
  const to = iccs.slice(2, 4);
  const moving = placement[from];
  if (!moving || (step.black_half && step.black_half[to])) {
    board.set({ fen: setupFen(placement, step.black_half) });
    return;
  }
  const there = placement[to];
  delete placement[from];
  if (there) placement[from] = there; // dropping on your own piece swaps the two
  placement[to] = moving;
  board.set({ fen: setupFen(placement, step.black_half), lastMove: null, shapes: [] });
  $("retry").hidden = false;
}

async function submitSetup() {
  if (busy || over) return;
  clearResend();
  busy = true;
  const { ok, lost, data } = await post("setup", { placement });
  busy = false;
  if (lost) {
    offerResend(data.error.message, submitSetup);
    return;
  }
  const list = $("violations");
  list.textContent = "";
  if (!ok) {
    setStatus(data.error.message, "error");
    return;
  }
  for (const violation of data.violations) {
    const item = document.createElement("li");
    item.textContent = violation.text;
    item.dataset.code = violation.code;
    list.appendChild(item);
  }
  list.hidden = data.violations.length === 0;
  board.set({ shapes: data.violations.filter((v) => v.point).map((v) => ({ at: v.point, brush: "red" })) });
  if (data.valid) {
    stepCompleted(data);
  } else {
    setStatus(data.message.text, "failed");
    document.body.dataset.result = "wrong";
  }
  showButtons();
}

// --- a move written in words ------------------------------------------------------------------

async function submitWritten(event) {
  if (event) event.preventDefault();
  if (step.goal !== "write" || busy) return;
  if (over && step.completedNow) {
    setStatus(labels.step_done, "hint");
    return;
  }
  const text = $("write-input").value;
  if (!text.trim()) {
    setStatus(labels.write_empty, "error");
    return;
  }
  clearResend();
  busy = true;
  const { ok, lost, data } = await post("write", { text });
  busy = false;
  if (lost) {
    offerResend(data.error.message, () => submitWritten(null));
    return;
  }
  if (!ok) {
    setStatus(data.error.message, "error");
    return;
  }
  if (data.move) {
    // The move the words name, drawn beside the step's own marks.
    const named = { from: data.move.slice(0, 2), to: data.move.slice(2, 4), brush: data.correct ? "green" : "red" };
    board.set({ shapes: [...targetShapes(step.targets), named] });
  }
  if (data.correct) {
    stepCompleted(data);
  } else {
    setStatus(data.message.text, "failed");
    document.body.dataset.result = "wrong";
  }
  showButtons();
}
$("write-form").addEventListener("submit", submitWritten);

// --- buttons -----------------------------------------------------------------------------------

$("retry").addEventListener("click", () => showStep(step));
// Typed moves (ICCS or Chinese notation) and typed points ("c3") go where clicks go.
attachMoveInput($("move-form"), {
  board: () => board,
  onMove: (iccs) => onBoardMove(iccs),
  onPoint: (point) => (step.goal === "point" ? answer(point) : undefined),
});
$("next").addEventListener("click", () => {
  const index = lesson.steps.indexOf(step);
  if (index + 1 < lesson.steps.length) showStep(lesson.steps[index + 1]);
});
$("hint").addEventListener("click", () => setStatus(step.hint, "hint"));
$("setup-submit").addEventListener("click", submitSetup);
$("setup-reset").addEventListener("click", () => showStep(step));
for (const dot of document.querySelectorAll(".step-dot")) {
  dot.addEventListener("click", () => showStep(lesson.steps.find((s) => s.key === dot.dataset.step)));
}

showStep(lesson.steps.find((s) => s.key === page.start_step) || lesson.steps[0]);
document.body.dataset.ready = "1";
