// The puzzle player: the site plays the defender, every move is judged on the server.
// The server opens the attempt, holds its line and ends it at the first wrong move; the page
// never holds the solution: it arrives only once the try is over.
import { copyLink } from "../core/copy.js";
import { moveText } from "../core/notation.js";
import { api, format, sleep } from "./common.js";

const page = JSON.parse(document.getElementById("puzzle-page").textContent);
const L = page.labels;
const { mountBoard, attachMoveInput } = await import(page.board_module);

const el = (id) => document.getElementById(id);
const boardEl = el("board");
const statusEl = el("status");
const resultEl = el("result");
const infoEl = el("puzzle-info");
const movesEl = el("moves");
const hintButton = el("hint");
const giveUpButton = el("give-up");
const retryButton = el("retry");
const nextButton = el("next"); // a button in the trainer, a link to it on other pages
const giveUpNote = el("give-up-note");
const solutionBox = el("solution");
const solutionLine = el("solution-line");
const noticeEl = el("puzzle-notice");

const urlFor = (template, id) => template.replace("/0/", `/${id}/`);

const state = {
  puzzle: null,
  moves: [],
  attempt: null, // the attempt as the server last answered it
  hints: 0,
  finished: false,
  busy: false,
  fen: "",
  dests: [],
  seen: [],
  solution: null,
};
let board = null;

function setState(name) {
  document.body.dataset.puzzleState = name;
}

function say(text, kind = "") {
  statusEl.textContent = text;
  statusEl.className = `status ${kind ? `status-${kind}` : ""}`;
  statusEl.dataset.kind = kind;
}

function addMove(move, who) {
  const item = document.createElement("li");
  item.className = `move-${who}`;
  item.dataset.iccs = move.iccs;
  moveText(item, move);
  movesEl.appendChild(item);
}

// Before the click: showing the solution ends a try that may be rated as not solved.
function showGiveUpNote() {
  if (giveUpNote) giveUpNote.hidden = !(page.logged_in && !state.finished && state.hints === 0);
}

function showInfo(puzzle) {
  // a material win missed in the player's own game takes every move about as good
  const own = puzzle.goal === "material" && puzzle.game && puzzle.game.kind === "own";
  const label = L.goals[own ? "material_own" : puzzle.goal] || L.goals[puzzle.goal];
  const goal = format(label || puzzle.goal, { n: puzzle.moves_to_win });
  const side = puzzle.turn === "red" ? L.red : L.black;
  infoEl.textContent = "";
  const title = document.createElement("h1");
  title.className = "puzzle-title";
  title.textContent = format(L.side_goal, { side, goal });
  infoEl.appendChild(title);
  const meta = document.createElement("p");
  meta.className = "muted";
  const parts = [`${L.puzzle_rating} ${puzzle.rating}`];
  if (puzzle.title) parts.push(puzzle.title);
  if (puzzle.collection) parts.push(puzzle.collection);
  if (puzzle.author) parts.push(`@${puzzle.author}`);
  meta.textContent = parts.join(" · ");
  infoEl.appendChild(meta);
  const tags = document.createElement("p");
  tags.className = "puzzle-themes";
  tags.dataset.testid = "puzzle-themes";
  infoEl.appendChild(tags);
  showThemes(puzzle.themes);
  const proof = document.createElement("p");
  proof.className = "muted puzzle-proof-mode";
  proof.dataset.testid = "proof-mode";
  infoEl.appendChild(proof);
  showProofMode(puzzle.proof_mode);
  const judged = document.createElement("p");
  judged.className = "muted puzzle-checked-by";
  judged.dataset.testid = "checked-by";
  infoEl.appendChild(judged);
  showCheckedBy(puzzle.checked_by);
  el("puzzle-game").hidden = true; // its game is named once the try is over (showGame)
  infoEl.dataset.puzzleId = String(puzzle.id);
  infoEl.dataset.variant = puzzle.variant;
  const share = el("share-box");
  share.hidden = puzzle.status === "private"; // a mate missed in my game is mine alone
  el("share-link").value = puzzle.share_url;
}

// The themes give the idea away ("quiet move", "sacrifice"): the server sends them (null
// before) only once the try is over, and they are shown then.
function showThemes(themes) {
  const tags = infoEl.querySelector(".puzzle-themes");
  if (!tags) return;
  tags.dataset.themes = (themes || []).join(",");
  tags.textContent = (themes || []).map((t) => `#${page.theme_names[t] || t}`).join(" ");
  tags.hidden = !(themes && themes.length);
}

// "Proved among checking moves" says every move of the answer is a check: the server sends
// the proof's mode (null before) only once the try is over, and it is said then.
function showProofMode(mode) {
  const note = infoEl.querySelector(".puzzle-proof-mode");
  if (!note) return;
  note.dataset.mode = mode || "";
  note.textContent = mode === "checks_only" ? L.checks_only : "";
  note.hidden = mode !== "checks_only";
}

// Which engine judged a win-material puzzle, on what search, and what it decided: said by
// the server (null before) only once the try is over, since it names how many moves win.
function showCheckedBy(text) {
  const note = infoEl.querySelector(".puzzle-checked-by");
  if (!note) return;
  note.textContent = text || "";
  note.hidden = !text;
}

// What the trainer had to relax to find a puzzle (the rating range of the difficulty, or
// puzzles already tried), in words; nothing when it found one as asked.
function showNotice(relaxed) {
  if (!noticeEl) return;
  noticeEl.textContent = "";
  (relaxed || []).forEach((item) => {
    const line = document.createElement("span");
    line.className = "puzzle-notice-line";
    line.dataset.code = item.code;
    line.textContent = item.message;
    noticeEl.appendChild(line);
  });
  noticeEl.hidden = !(relaxed && relaxed.length);
}

function showBoard(fen, changes = {}) {
  const turn = state.puzzle.turn;
  const settings = {
    fen,
    dests: state.dests,
    movable: state.finished ? null : turn,
    lastMove: null,
    check: null,
    shapes: [],
    ...changes,
  };
  if (!board) {
    board = mountBoard(boardEl, {
      variant: state.puzzle.variant,
      orientation: turn,
      ...settings,
      sound: true,
      onMove: (iccs) => play(iccs),
    });
  } else {
    board.set(settings);
  }
}

async function reset() {
  const puzzle = state.puzzle;
  state.moves = [];
  state.attempt = null;
  state.hints = 0;
  state.finished = false;
  state.busy = true;
  state.solution = null;
  state.fen = puzzle.fen;
  state.dests = [];
  movesEl.textContent = "";
  resultEl.textContent = "";
  resultEl.dataset.result = "";
  solutionBox.hidden = true;
  showPatterns(null);
  hintButton.hidden = false;
  hintButton.disabled = false;
  giveUpButton.hidden = false;
  retryButton.hidden = true;
  if (nextButton) nextButton.hidden = true;
  showGiveUpNote();
  if (board && board.variant !== puzzle.variant) {
    board.destroy();
    board = null;
  }
  if (board && board.orientation() !== puzzle.turn) board.flip();
  showBoard(puzzle.fen, { check: puzzle.check, movable: null });
  setState("loading");
  if (!(await openAttempt())) return;
  state.busy = false;
  say(L.your_turn);
  setState(state.moves.length ? "playing" : "ready");
}

// --- The attempt, played on the server ----------------------------------------------------

/** Open an attempt (or go on with the one the server holds open) and show its line. */
async function openAttempt() {
  let attempt;
  try {
    attempt = await api("POST", urlFor(page.api.open, state.puzzle.id));
  } catch (error) {
    say(error.message || L.error, "error");
    setState("error");
    return false;
  }
  state.attempt = attempt;
  state.moves = attempt.moves.slice();
  state.hints = attempt.hints_used;
  attempt.line.forEach((move, index) => addMove(move, index % 2 === 0 ? "attacker" : "defender"));
  state.fen = attempt.fen;
  state.dests = attempt.legal_moves;
  const last = attempt.line.length ? attempt.line[attempt.line.length - 1].iccs : null;
  showBoard(attempt.fen, { lastMove: last, check: attempt.check });
  if (state.hints) resultEl.textContent = L.unrated_hint;
  return true;
}

/** Send one move of mine; the server judges it and answers (and ends the try if wrong). */
async function sendMove(iccs) {
  const result = await api("POST", urlFor(page.api.judge, state.puzzle.id), {
    attempt: state.attempt.id,
    move: iccs,
    ply: state.moves.length,
  });
  state.attempt = result.attempt;
  return result;
}

/** A hint for my next move, recorded on the attempt (which is then unrated). */
function askHint(level) {
  return api("POST", urlFor(page.api.hint, state.puzzle.id), { attempt: state.attempt.id, level });
}

/** Show the solution: the server ends the try, and answers with the solution. */
async function endWithSolution() {
  state.attempt = await api("POST", urlFor(page.api.give_up, state.puzzle.id), {
    attempt: state.attempt.id,
  });
  return state.attempt;
}

/** Poll the attempt until the worker has scored it. */
async function waitForScore(attempt) {
  for (let i = 0; i < 120 && attempt.state !== "scored"; i++) {
    await sleep(i < 10 ? 250 : 1000);
    try {
      attempt = await api("GET", attempt.status_url);
    } catch (_error) {
      break;
    }
  }
  state.attempt = attempt;
  return attempt;
}

// Resolves false when the move was not played (refused, or not judged in time).
async function play(iccs) {
  if (state.finished || state.busy) return false;
  state.busy = true;
  board.set({ movable: null, shapes: [] });
  say(L.thinking);
  let result;
  try {
    result = await sendMove(iccs);
  } catch (error) {
    state.busy = false;
    showBoard(state.fen);
    say(error.message || L.error, "error");
    return false;
  }
  if (result.verdict === "good") {
    // Also good, but not the best (a tactics puzzle): not played; try again from here.
    state.busy = false;
    showBoard(state.fen);
    say(L.also_good, "good");
    setState("also-good");
    return false;
  }
  if (result.verdict !== "unknown") {
    state.moves.push(iccs);
    addMove(result.move, "attacker");
  }
  if (result.verdict === "continue") {
    say(L.correct, "good");
    board.set({ lastMove: iccs });
    await sleep(300);
    state.moves.push(result.reply.iccs);
    addMove(result.reply, "defender");
    state.fen = result.fen;
    state.dests = result.legal_moves;
    showBoard(result.fen, { lastMove: result.reply.iccs, check: result.check });
    state.busy = false;
    setState("playing");
  } else if (result.verdict === "solved") {
    state.fen = result.fen;
    state.finished = true;
    showBoard(result.fen, { lastMove: iccs, check: result.check, movable: null });
    say(L.solved, "solved");
    await finish(false, "solved");
  } else if (result.verdict === "wrong") {
    state.finished = true;
    showBoard(result.fen, { lastMove: iccs, check: result.check, movable: null });
    let text = L.wrong;
    if (result.refutation.length) {
      const refutation = result.refutation[0];
      await sleep(400);
      showBoard(refutation.fen, {
        lastMove: refutation.iccs,
        movable: null,
        shapes: [{ from: refutation.iccs.slice(0, 2), to: refutation.iccs.slice(2, 4), brush: "red" }],
      });
      addMove(refutation, "refutation");
      // a tactics puzzle's reason says what the reply wins or saves; a mate's, the escape
      text =
        state.puzzle.goal === "material" && result.reason
          ? result.reason
          : format(L.wrong_refuted, { move: refutation.chinese });
    } else if (result.reason) {
      text = format(L.wrong_reason, { reason: result.reason });
    }
    say(text, "wrong");
    await finish(false, "failed");
  } else {
    // Could not be judged in time: the move is not played, take it back.
    state.busy = false;
    showBoard(state.fen);
    say(L.unknown, "error");
    return false;
  }
  return true;
}

async function hint() {
  if (state.finished || state.busy) return;
  const level = Math.min(2, state.hints + 1);
  try {
    const answer = await askHint(level);
    state.hints = level;
    if (answer.move) {
      board.set({ shapes: [{ from: answer.move.slice(0, 2), to: answer.move.slice(2, 4), brush: "blue" }] });
      say(L.hint_move);
      hintButton.disabled = true;
    } else {
      board.set({ shapes: [{ at: answer.square, brush: "blue" }] });
      say(L.hint_piece);
    }
    resultEl.textContent = L.unrated_hint;
    showGiveUpNote();
  } catch (error) {
    say(error.message || L.error, "error");
  }
}

// Where a puzzle from a master game comes from: its game, with a link to the replay at the
// puzzle's moment. Shown once the try is over, since the game goes on with the answer.
function showGame(puzzle) {
  const box = el("puzzle-game");
  if (!box) return;
  box.textContent = "";
  box.hidden = !(puzzle && puzzle.game && state.finished);
  if (box.hidden) return;
  const link = document.createElement("a");
  link.href = puzzle.game.url;
  link.textContent = puzzle.game.title;
  link.dataset.testid = "puzzle-game-link";
  if (puzzle.game.kind === "own") {
    box.append(`${L.from_own_game} `, link); // the player's own game: no credit to give
    return;
  }
  const credit = document.createElement("span");
  credit.className = "muted puzzle-game-credit";
  credit.textContent = L.game_credit;
  box.append(`${L.from_game} `, link, document.createElement("br"), credit);
}

// The named kill patterns of the mate, each a link to its page. Named only once the try is
// over (the server sends them then): a pattern names the answer's final position.
function showPatterns(patterns) {
  const box = el("puzzle-patterns");
  if (!box) return;
  box.textContent = "";
  box.hidden = !(patterns && patterns.length && state.finished);
  if (box.hidden) return;
  box.append(L.patterns);
  patterns.forEach((pattern, index) => {
    if (index) box.append(" ·");
    const link = document.createElement("a");
    link.href = pattern.url;
    link.textContent = pattern.name;
    link.dataset.pattern = pattern.code;
    box.appendChild(link);
  });
}

async function finish(gaveUp, outcome) {
  state.finished = true;
  showGame(state.puzzle);
  state.busy = false;
  hintButton.hidden = true;
  giveUpButton.hidden = true;
  giveUpButton.disabled = false;
  retryButton.hidden = false;
  if (nextButton) nextButton.hidden = false;
  showGiveUpNote();
  setState(outcome);
  resultEl.textContent = L.scoring;
  let attempt = state.attempt;
  if (gaveUp) {
    try {
      attempt = await endWithSolution();
    } catch (error) {
      resultEl.textContent = error.message || L.error;
      return;
    }
  }
  state.solution = attempt.solution;
  showPatterns(attempt.patterns);
  showThemes(attempt.themes);
  showProofMode(attempt.proof_mode);
  showCheckedBy(attempt.checked_by);
  // After a solve or giving up the line is shown; after a wrong move only on request, so
  // that a retry is still a puzzle. A solved puzzle has nothing left to show.
  if (gaveUp) showSolution(attempt.solution);
  else if (outcome !== "solved") giveUpButton.hidden = false;
  attempt = await waitForScore(attempt);
  state.solution = attempt.solution || state.solution;
  if (outcome === "solved") showSolution(state.solution);
  showScore(attempt);
}

function showScore(attempt) {
  resultEl.dataset.result = attempt.result;
  resultEl.dataset.reason = "";
  resultEl.dataset.rated = attempt.rated ? "1" : "";
  if (attempt.state !== "scored") {
    resultEl.textContent = L.scoring;
    return;
  }
  setState("scored");
  if (attempt.rated) {
    const before = Math.round(attempt.user_rating_before);
    const after = Math.round(attempt.user_rating_after);
    const delta = after - before;
    resultEl.textContent = format(L.rated, { before, after, delta: delta >= 0 ? `+${delta}` : `${delta}` });
  } else if (attempt.unrated_reason) {
    // Why, in the reader's language: a hint, the solution shown, not the first try, ...
    resultEl.textContent = attempt.unrated_reason_text;
    resultEl.dataset.reason = attempt.unrated_reason;
  } else {
    resultEl.textContent = page.logged_in ? L.unrated : L.unrated_anonymous;
  }
}

// One move of the solution on the board: the position after it, its from and to points
// marked (the last-move rings and an arrow), and its button in the list marked as the one shown.
function showSolutionMove(solution, index) {
  const move = solution.line[index];
  if (!move) return;
  board.set({
    fen: move.fen,
    lastMove: move.iccs,
    check: null,
    movable: null,
    shapes: [{ from: move.iccs.slice(0, 2), to: move.iccs.slice(2, 4), brush: "green" }],
  });
  solutionLine.querySelectorAll("button").forEach((button, at) => {
    if (at === index) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  });
  solutionBox.dataset.shown = String(index);
}

function showSolution(solution) {
  if (!solution) return;
  solutionLine.textContent = "";
  solution.line.forEach((move, index) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link-move";
    moveText(button, move);
    button.dataset.iccs = move.iccs;
    button.addEventListener("click", () => showSolutionMove(solution, index));
    item.appendChild(button);
    item.className = index % 2 === 0 ? "move-attacker" : "move-defender";
    solutionLine.appendChild(item);
  });
  solutionBox.hidden = false;
  // After a solve the board stays on the player's own mate. Otherwise the board shows the
  // solution's move from where the try stopped (the key when the try left the line).
  if (state.attempt && state.attempt.result === "solved") return;
  const line = solution.line;
  let index = 0;
  while (index < state.moves.length && index < line.length && line[index].iccs === state.moves[index]) index++;
  showSolutionMove(solution, Math.min(index, line.length - 1));
}

async function giveUp() {
  if (state.finished) {
    if (!state.solution && state.attempt) {
      try {
        state.solution = (await endWithSolution()).solution;
      } catch (error) {
        say(error.message || L.error, "error");
        return;
      }
    }
    showSolution(state.solution);
    giveUpButton.hidden = true;
    return;
  }
  if (state.busy || !state.attempt) return;
  state.finished = true;
  showBoard(state.fen, { movable: null });
  say(L.solution, "wrong");
  await finish(true, "failed");
}

async function load() {
  setState("loading");
  let puzzle;
  try {
    if (page.mode === "fixed") {
      puzzle = await api("GET", urlFor(page.api.detail, page.puzzle_id));
    } else {
      const params = new URLSearchParams({ variant: page.variant, difficulty: page.difficulty });
      if (page.themes.length) params.set("themes", page.themes.join(","));
      if (page.pool === "mine") params.set("pool", "mine");
      else if (page.kind !== "all") params.set("kind", page.kind);
      if (state.seen.length) params.set("exclude", state.seen.slice(-50).join(","));
      puzzle = await api("GET", `${page.api.next}?${params}`);
    }
  } catch (error) {
    const none = page.pool === "mine" ? L.no_missed : L.no_puzzle;
    say(error.status === 404 ? none : error.message || L.error, "error");
    setState("empty");
    return;
  }
  state.puzzle = puzzle;
  state.seen.push(puzzle.id);
  showNotice(puzzle.relaxed);
  showInfo(puzzle);
  reset();
}

hintButton.addEventListener("click", hint);
giveUpButton.addEventListener("click", giveUp);
retryButton.addEventListener("click", () => reset());
if (nextButton && page.mode === "next") nextButton.addEventListener("click", load);
el("flip").addEventListener("click", () => board && board.flip());
el("copy-link").addEventListener("click", () => copyLink(el("share-link"), el("copy-link"), L.copied));
// A typed move (ICCS or Chinese notation) is played as if the pieces had been moved by hand.
attachMoveInput(el("move-form"), { board: () => board, onMove: (iccs) => play(iccs) });

const filters = el("filters");
// A theme or kill pattern is offered in the variants that have puzzles with it. One chosen
// stays while the variant can have it; choosing a variant that cannot lets go of it.
function showThemeChips() {
  const variant = el("filter-variant").value;
  filters.querySelectorAll("label[data-variants]").forEach((chip) => {
    const box = chip.querySelector("input");
    if (!chip.dataset.occurs.split(" ").includes(variant)) box.checked = false;
    chip.hidden = !box.checked && !chip.dataset.variants.split(" ").includes(variant);
  });
}
if (filters) {
  showThemeChips();
  el("filter-variant").addEventListener("change", showThemeChips);
  filters.addEventListener("submit", (event) => {
    event.preventDefault();
    const checked = [...filters.querySelectorAll("input[name=theme]:checked")].map((i) => i.value);
    page.variant = el("filter-variant").value;
    page.difficulty = el("filter-difficulty").value;
    page.pool = el("filter-pool").value;
    page.kind = el("filter-kind").value;
    page.themes = checked;
    const params = new URLSearchParams({ variant: page.variant, difficulty: page.difficulty });
    if (checked.length) params.set("themes", checked.join(","));
    if (page.pool === "mine") params.set("pool", "mine");
    else if (page.kind !== "all") params.set("kind", page.kind);
    history.replaceState(null, "", `?${params}`);
    state.seen = [];
    load();
  });
}

window.puzzlePlayer = { state, board: () => board };
load();
