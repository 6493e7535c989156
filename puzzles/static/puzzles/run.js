// Puzzle Streak and Puzzle Storm. The server holds the run: its puzzles, the line played, the
// score and a storm's clock. The page sends moves (with the puzzle and the place in its line
// they are for) and shows what the server answers; the clock shown here only counts down
// between answers, each of which sets it again from the server's time left.
import { api, format, sleep } from "./common.js";

const page = JSON.parse(document.getElementById("run-page").textContent);
const L = page.labels;
const storm = page.mode === "storm";
const { mountBoard, attachMoveInput } = await import(page.board_module);

const el = (id) => document.getElementById(id);
const boardEl = el("board");
const statusEl = el("status");
const infoEl = el("puzzle-info");
const startBox = el("run-start-box");
const playBox = el("run-play-box");
const resultBox = el("run-result");
const skipButton = el("run-skip");
const urlFor = (template, id) => template.replace("/0/", `/${id}/`);

const state = { run: null, busy: false, deadline: 0, timer: null, shown: null };
let board = null;

function setState(name) {
  document.body.dataset.runState = name;
}

function say(text, kind = "") {
  statusEl.textContent = text;
  statusEl.className = `status ${kind ? `status-${kind}` : ""}`;
  statusEl.dataset.kind = kind;
}

function showInfo(run) {
  const puzzle = run.puzzle;
  infoEl.textContent = "";
  const title = document.createElement("p");
  title.className = "puzzle-title";
  const goal = format(L.goals[puzzle.goal] || puzzle.goal, { n: puzzle.moves_to_win });
  title.textContent = format(L.side_goal, { side: puzzle.turn === "red" ? L.red : L.black, goal });
  const meta = document.createElement("p");
  meta.className = "muted";
  meta.textContent = [
    format(L.puzzle_of, { n: run.index + 1, total: run.total }),
    `${L.puzzle_rating} ${puzzle.rating}`,
  ].join(" · ");
  infoEl.append(title, meta);
  infoEl.dataset.puzzleId = String(puzzle.id);
  infoEl.dataset.index = String(run.index);
}

function showFigures(run) {
  el("run-score").textContent = String(run.score);
  if (storm) el("run-combo").textContent = String(run.combo);
  const best = el("run-best");
  const known = Number.parseInt(best.textContent, 10);
  if (!(known >= run.score)) best.textContent = String(run.score);
}

function showBoard(puzzle, changes = {}) {
  const settings = {
    fen: puzzle.fen,
    dests: puzzle.legal_moves,
    movable: puzzle.turn,
    lastMove: puzzle.line.length ? puzzle.line[puzzle.line.length - 1].iccs : null,
    check: puzzle.check,
    shapes: [],
    ...changes,
  };
  if (board && board.variant !== puzzle.variant) {
    board.destroy();
    board = null;
  }
  if (!board) {
    board = mountBoard(boardEl, {
      variant: puzzle.variant,
      orientation: puzzle.turn,
      ...settings,
      sound: true,
      onMove: (iccs) => play(iccs),
    });
  } else {
    if (board.orientation() !== puzzle.turn && state.shown !== puzzle.id) board.flip();
    board.set(settings);
  }
  state.shown = puzzle.id;
}

// --- The clock (a storm's): the server's time left, counted down between answers ---------

function tick() {
  const left = Math.max(0, state.deadline - performance.now()) / 1000;
  el("run-clock").textContent = String(Math.ceil(left));
  el("run-clock").dataset.seconds = left.toFixed(1);
  if (left <= 0 && state.run && state.run.open) {
    stopClock();
    refresh(); // the server ends the run; it decides, not this clock
  }
}

function startClock(run) {
  stopClock();
  if (!storm) return;
  state.deadline = performance.now() + (run.time_left || 0) * 1000;
  tick();
  if (run.open) state.timer = setInterval(tick, 250);
}

function stopClock() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
}

// --- The run -------------------------------------------------------------------------------

function show(run) {
  state.run = run;
  showFigures(run);
  startClock(run);
  if (!run.open || !run.puzzle) {
    finished(run);
    return;
  }
  startBox.hidden = true;
  playBox.hidden = false;
  resultBox.hidden = true;
  if (skipButton) skipButton.hidden = run.skip_used;
  showInfo(run);
  showBoard(run.puzzle);
  setState("playing");
}

function finished(run) {
  stopClock();
  if (storm) el("run-clock").textContent = "0";
  playBox.hidden = true;
  startBox.hidden = false;
  el("run-start").textContent = L.again;
  if (board) board.set({ movable: null, dests: [] });
  infoEl.textContent = "";
  delete infoEl.dataset.puzzleId;
  el("run-final").textContent = format(L.final, { score: run.score });
  el("run-end").textContent = [run.end_text, format(L.best_combo, { n: run.best_combo })].join(" · ");
  // A run played faster than a person can move keeps its score, off the leaderboard.
  const note = el("run-too-fast");
  note.textContent = run.too_fast ? L.too_fast : "";
  note.hidden = !run.too_fast;
  // The whole run to review: every puzzle played, solved, missed or skipped, each a link to
  // its page in the trainer.
  const list = el("run-played");
  list.textContent = "";
  run.played.forEach((puzzle) => {
    const item = document.createElement("li");
    item.className = `run-played-${puzzle.result}`;
    item.dataset.result = puzzle.result;
    const link = document.createElement("a");
    link.href = puzzle.url;
    link.textContent = `${format(L.goals[puzzle.goal] || puzzle.goal, { n: puzzle.moves_to_win })} · ${L.puzzle_rating} ${puzzle.rating}`;
    link.dataset.puzzleId = String(puzzle.id);
    const result = document.createElement("span");
    result.className = "run-played-result";
    result.textContent = L.results[puzzle.result] || puzzle.result;
    item.append(result, " ", link);
    list.appendChild(item);
  });
  if (!run.played.length) {
    const item = document.createElement("li");
    item.className = "muted";
    item.textContent = L.played_none;
    list.appendChild(item);
  }
  showBestToday(run.score);
  resultBox.hidden = false;
  document.body.dataset.runEnd = run.end;
  setState("finished");
  showLeaderboard();
}

/** The player's best of the day, raised by the run just ended (the page's own figure). */
function showBestToday(score) {
  const best = el("best-today");
  const known = Number.parseInt(best.dataset.score, 10) || 0;
  if (score <= known) return;
  best.dataset.score = String(score);
  best.textContent = format(L.best_today, { score });
  best.hidden = false;
}

/** The day's leaderboard again, now that a run has ended (it may be on it). */
async function showLeaderboard() {
  const params = new URLSearchParams({ mode: page.mode, variant: page.variant });
  let rows;
  try {
    rows = await api("GET", `${page.api.leaderboard}?${params}`);
  } catch (_error) {
    return; // the board shown with the page stays
  }
  const list = document.querySelector("[data-testid='leaderboard']");
  list.textContent = "";
  rows.forEach((row) => {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.className = "leader-name";
    name.textContent = row.username;
    const score = document.createElement("strong");
    score.textContent = String(row.score);
    item.append(name, " ", score);
    list.appendChild(item);
  });
  if (!rows.length) {
    const item = document.createElement("li");
    item.className = "muted";
    item.textContent = L.board_empty;
    list.appendChild(item);
  }
  list.dataset.refreshed = "1";
}

async function refresh() {
  if (!state.run) return;
  try {
    show(await api("GET", urlFor(page.api.run, state.run.id)));
  } catch (error) {
    say(error.message || L.error, "error");
  }
}

// On a phone the Start button is under the board: once the run starts, the board is brought
// back into view, whole, with the task under it.
function bringBoardIntoView() {
  const box = boardEl.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) boardEl.scrollIntoView({ block: "start" });
}

async function start() {
  if (state.busy) return;
  state.busy = true;
  setState("loading");
  say("");
  delete document.body.dataset.runEnd;
  delete boardEl.dataset.refutation;
  try {
    show(await api("POST", page.api.runs, { mode: page.mode, variant: page.variant }));
    say(L.your_turn);
    bringBoardIntoView();
  } catch (error) {
    say(error.message || L.error, "error");
    setState("error");
  } finally {
    state.busy = false;
  }
}

async function play(iccs) {
  const run = state.run;
  if (!run || !run.open || state.busy) return false;
  state.busy = true;
  board.set({ movable: null, shapes: [] });
  say(L.thinking);
  let answer;
  try {
    answer = await api("POST", urlFor(page.api.move, run.id), {
      index: run.index,
      ply: run.puzzle.line.length,
      move: iccs,
    });
  } catch (error) {
    state.busy = false;
    say(error.message || L.error, "error");
    await refresh(); // out of step, or the time ran out: show the run as the server has it
    return false;
  }
  state.busy = false;
  if (answer.verdict === "unknown" || answer.verdict === "good") {
    show(answer.run); // the move is not played: the board goes back to the run as it stands
    if (answer.verdict === "good") say(L.also_good, "good"); // a smaller win: look again
    else say(L.unknown, "error");
    return false;
  }
  if (answer.verdict === "continue") {
    say(L.correct, "good");
    const puzzle = answer.run.puzzle;
    showBoard({ ...puzzle, fen: answer.move.fen, legal_moves: [] }, { movable: null, lastMove: iccs, check: null });
    await sleep(250);
    show(answer.run);
    return true;
  }
  if (answer.verdict === "solved") {
    say(answer.seconds > 0 ? format(L.bonus, { n: answer.run.combo, seconds: answer.seconds }) : L.solved, "solved");
  } else if (answer.refutation && answer.refutation.length) {
    // A streak ends here: the answer that refutes the move is played on the board, and why
    // is said, as the trainer does.
    await showRefutation(iccs, answer);
  } else {
    // missed for its solution was seen (in the trainer, a hint), whatever the move
    const text = answer.reason === "solution_seen" ? L.seen : L.wrong;
    say(format(text, { seconds: -answer.seconds }), "wrong");
  }
  boardEl.dataset.lastReason = answer.reason || "";
  boardEl.dataset.lastVerdict = answer.verdict;
  show(answer.run);
  return true;
}

/** The wrong move, then the reply that refutes it, on the board; the reason beside. */
async function showRefutation(iccs, answer) {
  const puzzle = state.run.puzzle;
  const refutation = answer.refutation[0];
  showBoard({ ...puzzle, fen: answer.move.fen, legal_moves: [] }, { movable: null, lastMove: iccs, check: null });
  await sleep(400);
  showBoard(
    { ...puzzle, fen: refutation.fen, legal_moves: [] },
    {
      movable: null,
      lastMove: refutation.iccs,
      check: null,
      shapes: [{ from: refutation.iccs.slice(0, 2), to: refutation.iccs.slice(2, 4), brush: "red" }],
    },
  );
  boardEl.dataset.refutation = refutation.iccs;
  // a tactic's explanation says what the reply wins or saves; a mate's, the escape
  const text =
    puzzle.goal === "material" && answer.explanation
      ? format(L.wrong_explained, { reason: answer.explanation })
      : format(L.wrong_refuted, { move: refutation.chinese });
  say(text, "wrong");
}

async function skip() {
  const run = state.run;
  if (!run || !run.open || state.busy || run.skip_used) return;
  state.busy = true;
  try {
    show(await api("POST", urlFor(page.api.skip, run.id), { index: run.index }));
    say(L.skipped);
  } catch (error) {
    say(error.message || L.error, "error");
    await refresh();
  } finally {
    state.busy = false;
  }
}

async function stop() {
  const run = state.run;
  if (!run || !run.open || state.busy) return;
  state.busy = true;
  try {
    show(await api("POST", urlFor(page.api.stop, run.id)));
  } catch (error) {
    say(error.message || L.error, "error");
  } finally {
    state.busy = false;
  }
}

async function resume() {
  setState("loading");
  const params = new URLSearchParams({ mode: page.mode, variant: page.variant });
  try {
    const { run } = await api("GET", `${page.api.runs}?${params}`);
    if (run) {
      show(run);
      say(L.your_turn);
      return;
    }
  } catch (error) {
    say(error.message || L.error, "error");
  }
  if (!board) {
    // Until a run starts, the variant's board at its start, still: the page is never half empty.
    board = mountBoard(boardEl, {
      variant: page.variant,
      orientation: "red",
      fen: page.start_fen,
      movable: null,
      dests: [],
      onMove: (iccs) => play(iccs),
    });
  }
  setState("idle");
}

el("run-start").addEventListener("click", start);
el("run-stop").addEventListener("click", stop);
if (skipButton) skipButton.addEventListener("click", skip);
el("flip").addEventListener("click", () => board && board.flip());
attachMoveInput(el("move-form"), { board: () => board, onMove: (iccs) => play(iccs) });

window.puzzleRun = { state, board: () => board };
resume();
