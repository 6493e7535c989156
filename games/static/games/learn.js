// Learn from your mistakes (games/learn.html): each of the player's mistakes and blunders of an
// analysed game, in order, as a position to find a better move in. The judge weighed every
// legal move there when it analysed the game (games.game_analysis.move_ranking), so a move is
// answered at once: one about as good as the best (the step's "answers") is found; the move
// played in the game is asked again; any other is not better, with the chances it leaves.
import { format } from "../core/api.js";

const page = JSON.parse(document.getElementById("learn-page").textContent);
const { mountBoard, attachMoveInput } = await import(page.board_module);
const L = page.labels;
const $ = (id) => document.getElementById(id);

const state = { index: 0, found: 0, settled: false };
let board = null;

const sideName = (side) => (side === "red" ? L.red : L.black);
const percent = (chance) => `${Math.round(chance * 100)}%`;
const moveName = (step, iccs) => `${step.moves[iccs].chinese} (${iccs})`;
const arrow = (iccs, brush) => [{ from: iccs.slice(0, 2), to: iccs.slice(2, 4), brush }];

function moveNumber(step) {
  const slot = step.ply - 1 + (page.black_first ? 1 : 0);
  return Math.floor(slot / 2) + 1;
}

function position(step, extra = {}) {
  return {
    fen: step.fen,
    dests: Object.keys(step.moves),
    movable: step.side,
    lastMove: step.last,
    check: null,
    shapes: [],
    ...extra,
  };
}

function buttons({ show, retry, next }) {
  $("learn-show").hidden = !show;
  $("learn-retry").hidden = !retry;
  $("learn-next").hidden = !next;
  const last = state.index === page.steps.length - 1;
  $("learn-next").textContent = last ? L.finish : L.next;
}

function say(text, kind = "") {
  const box = $("learn-feedback");
  box.textContent = text;
  box.className = kind ? `learn-${kind}` : "";
  box.dataset.kind = kind;
}

function showStep() {
  const step = page.steps[state.index];
  state.settled = false;
  const settings = position(step);
  // at one board each mistake is shown from the side that made it
  const orientation = page.local ? step.side : page.orientation;
  if (!board) {
    board = mountBoard($("board"), {
      variant: page.variant,
      orientation,
      ...settings,
      onMove: (iccs) => tried(iccs),
    });
  } else {
    board.set({ orientation, ...settings });
  }
  $("learn-progress").textContent = format(L.progress, { n: state.index + 1, total: page.steps.length });
  $("learn-prompt").textContent = format(step.missed_win ? L.prompt_win : L.prompt, {
    n: moveNumber(step),
    side: sideName(step.side),
    played: `${step.played.chinese} (${step.played.iccs})`,
    symbol: step.played.symbol,
  });
  say("");
  buttons({ show: true, retry: false, next: false });
  document.body.dataset.learnStep = String(state.index);
}

function tried(iccs) {
  const step = page.steps[state.index];
  if (state.settled || !(iccs in step.moves)) return false;
  if (step.answers.includes(iccs)) {
    state.settled = true;
    state.found += 1;
    const best = `${step.best.chinese} (${step.best.iccs})`;
    say(iccs === step.best.iccs ? format(L.best, { move: moveName(step, iccs) }) : format(L.good, { move: moveName(step, iccs), best }), "good");
    board.set({ movable: null, shapes: arrow(iccs, "green") });
    buttons({ show: false, retry: false, next: true });
    $("learn-next").focus();
    return true;
  }
  if (iccs === step.played.iccs) {
    say(L.same, "bad");
    board.set(position(step, { shapes: arrow(iccs, "red") }));
    return false;
  }
  const chance = step.moves[iccs].chance;
  const bestChance = step.moves[step.best.iccs].chance;
  say(
    format(L.not_better, {
      move: moveName(step, iccs),
      side: sideName(step.side),
      chance: chance === null ? "?" : percent(chance),
      best_chance: percent(bestChance),
    }),
    "bad",
  );
  board.set({ movable: null, shapes: arrow(iccs, "red") });
  buttons({ show: true, retry: true, next: false });
  $("learn-retry").focus();
  return true;
}

$("learn-show").textContent = L.show;
$("learn-retry").textContent = L.retry;

$("learn-show").addEventListener("click", () => {
  const step = page.steps[state.index];
  state.settled = true;
  say(format(L.shown, { best: `${step.best.chinese} (${step.best.iccs})` }), "shown");
  board.set(position(step, { movable: null, shapes: arrow(step.best.iccs, "blue") }));
  buttons({ show: false, retry: false, next: true });
  $("learn-next").focus();
});

$("learn-retry").addEventListener("click", () => {
  board.set(position(page.steps[state.index]));
  say("");
  buttons({ show: true, retry: false, next: false });
});

$("learn-next").addEventListener("click", () => {
  if (state.index < page.steps.length - 1) {
    state.index += 1;
    showStep();
    return;
  }
  $("learn-progress").textContent = "";
  $("learn-prompt").textContent = "";
  say(format(L.done, { found: state.found, total: page.steps.length }), "done");
  board.set({ movable: null, shapes: [] });
  buttons({ show: false, retry: false, next: false });
  document.body.dataset.learnStep = "done";
});

attachMoveInput($("move-form"), {
  board: () => board,
  onMove: async (iccs) => tried(iccs),
});

showStep();
document.body.dataset.ready = "1";
