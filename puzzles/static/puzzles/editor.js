// The puzzle editor: place pieces, pick the variant, side to move, goal and length; the server
// checks the position as it is composed (the board tells its own faults at once, the server the
// rest), and a submitted puzzle is proved in the background.
import { copyLink } from "../core/copy.js";
import { placementFen } from "../core/notation.js";
import { api, format, sleep } from "./common.js";

const page = JSON.parse(document.getElementById("editor-page").textContent);
const L = page.labels;
const boardModule = await import(page.board_module);
const { mountBoard, keyToIccs } = boardModule;

const el = (id) => document.getElementById(id);
const urlFor = (template, id) => template.replace("/0/", `/${id}/`);

const GLYPHS = {
  K: "帅", A: "仕", B: "相", N: "马", R: "车", C: "炮", P: "兵", F: "战机", M: "导弹",
  k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒", f: "战机", m: "导弹",
};
const PIECES = {
  xiangqi: ["K", "A", "B", "N", "R", "C", "P"],
  feidan: ["K", "A", "B", "N", "R", "C", "P", "F", "M"],
  xinban: ["K", "A", "B", "N", "R", "C", "P", "+R", "+N", "+C"],
};
const EMPTY = {
  xiangqi: "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
  xinban: "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
  feidan: "4k6/11/11/11/11/11/11/11/11/5K5 w - - 0 1",
};

const state = {
  id: page.puzzle ? page.puzzle.id : null,
  variant: page.puzzle ? page.puzzle.variant : page.initial ? page.initial.variant : "xiangqi",
  pieces: new Map(), // ICCS point -> FEN letter(s)
  turn: "w",
  tool: "K",
  checkTimer: null,
  checkSeq: 0,
};
let board = null;

function width() {
  return page.variants.find((v) => v.name === state.variant).width;
}

class FenError extends Error {}

// Read a FEN for the current variant, or throw a FenError that says what is wrong (in the
// reader's language); nothing changes until the whole FEN has been read.
function readFen(text) {
  const [placement = "", side = "w"] = text.trim().split(/\s+/);
  const fail = (key, values) => {
    throw new FenError(format(L.fen_error, { reason: format(L[key], values) }));
  };
  const ranks = placement.split("/");
  if (ranks.length !== 10) fail("fen_ranks", { n: ranks.length });
  const letters = new Set(PIECES[state.variant].flatMap((p) => [p, p.toLowerCase()]));
  const w = width();
  const pieces = new Map();
  ranks.forEach((row, index) => {
    const rank = 9 - index;
    let file = 0;
    for (let i = 0; i < row.length; i++) {
      let token = row[i];
      if (/\d/.test(token)) {
        while (i + 1 < row.length && /\d/.test(row[i + 1])) token += row[++i];
        const count = Number(token);
        if (count < 1) fail("fen_piece", { row: index + 1, letter: token });
        file += count; // a number is read whole: "45" is forty-five points, not nine
        continue;
      }
      if (token === "+") token += row[++i] || "";
      if (!letters.has(token)) fail("fen_piece", { row: index + 1, letter: token });
      if (file < w) pieces.set(`${"abcdefghijk"[file]}${rank}`, token);
      file += 1;
    }
    if (file !== w) fail("fen_width", { row: index + 1, n: file, width: w });
  });
  if (side !== "w" && side !== "b") fail("fen_side", { side });
  return { pieces, turn: side };
}

function parseFen(fen) {
  const { pieces, turn } = readFen(fen);
  state.pieces = pieces;
  state.turn = turn;
}

function fen() {
  return placementFen((point) => state.pieces.get(point), width(), state.turn);
}

function renderPalette() {
  for (const side of ["red", "black"]) {
    const box = el(`palette-${side}`);
    box.textContent = "";
    const letters = PIECES[state.variant].map((p) => (side === "red" ? p : p.toLowerCase()));
    for (const letter of letters) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = `palette-piece palette-${side}${letter.startsWith("+") ? " turncoat" : ""}`;
      button.dataset.piece = letter;
      button.textContent = GLYPHS[letter.replace("+", "")];
      button.title = L.pieces[letter]; // "Red chariot" / "红车"
      button.setAttribute("aria-label", L.pieces[letter]);
      button.setAttribute("aria-pressed", String(state.tool === letter));
      button.addEventListener("click", () => selectTool(letter));
      box.appendChild(button);
    }
    if (side === "red") {
      const eraser = document.createElement("button");
      eraser.type = "button";
      eraser.className = "palette-piece palette-eraser";
      eraser.dataset.piece = "erase";
      eraser.textContent = "✕";
      eraser.title = L.eraser;
      eraser.setAttribute("aria-label", L.eraser);
      eraser.setAttribute("aria-pressed", String(state.tool === "erase"));
      eraser.addEventListener("click", () => selectTool("erase"));
      box.appendChild(eraser);
    }
  }
}

function selectTool(tool) {
  state.tool = tool;
  document.querySelectorAll(".palette-piece").forEach((b) => {
    b.setAttribute("aria-pressed", String(b.dataset.piece === tool));
  });
}

function place(key) {
  const point = keyToIccs(key);
  if (state.tool === "erase" || state.pieces.get(point) === state.tool) {
    state.pieces.delete(point);
  } else {
    // A side has one general: placing it elsewhere moves it there.
    if (state.tool === "K" || state.tool === "k") {
      for (const [at, letter] of state.pieces) if (letter === state.tool) state.pieces.delete(at);
    }
    state.pieces.set(point, state.tool);
  }
  changed();
}

function mount() {
  if (board) board.destroy();
  board = mountBoard(el("board"), {
    variant: state.variant,
    fen: fen(),
    orientation: "red",
    movable: null,
    animation: false,
    fitBelow: [el("palette-red")],
  });
  board.ground.set({ events: { select: (key) => place(key) } });
}

function changed({ remount = false } = {}) {
  const text = fen();
  showResult("", ""); // what was said of the position before (saved, proved) is not of this one
  el("editor-fen").value = text;
  el("editor-fen").removeAttribute("aria-invalid");
  if (remount || !board) mount();
  else board.set({ fen: text });
  scheduleCheck();
}

function form() {
  return {
    variant: state.variant,
    fen: fen(),
    goal: el("editor-goal").value,
    moves_to_win: Number(el("editor-n").value) || 1,
    title: el("editor-title").value,
    mode: el("editor-mode").value,
  };
}

function showCheck(ok, text) {
  const box = el("editor-check");
  box.textContent = text;
  box.dataset.ok = ok ? "1" : "0";
  box.className = `status ${ok ? "status-good" : "status-error"}`;
}

// -- the checks the board can make by itself (puzzles/editor_checks.py) ----------------------

const FILES = "abcdefghijk";
const colourOf = (letter) => (/[A-Z]/.test(letter) ? "red" : "black"); // "+R" is Red's

function placedPieces() {
  const w = width();
  return [...state.pieces]
    .map(([point, letter]) => ({
      point,
      letter,
      file: FILES.indexOf(point[0]),
      rank: Number(point.slice(1)),
      colour: colourOf(letter),
      kind: letter.replace("+", "").toUpperCase(),
      turncoat: letter.startsWith("+"),
    }))
    .sort((a, b) => a.rank * w + a.file - (b.rank * w + b.file));
}

// May a piece of this kind stand here (docs/rules.md §3: palace, advisor and elephant points,
// soldiers never behind their start rank)? The code of the fault, or null.
function pointFault(p) {
  const centre = Math.floor(width() / 2);
  const side = Math.abs(p.file - centre);
  const back = p.colour === "red" ? p.rank : 9 - p.rank; // ranks from its own back rank
  if (p.kind === "K" && !(side <= 1 && back <= 2)) return "fen.general_outside_palace";
  if (p.kind === "A" && !((side === 1 && (back === 0 || back === 2)) || (side === 0 && back === 1))) {
    return "fen.advisor_point";
  }
  if (p.kind === "B" && !((side === 2 && (back === 0 || back === 4)) || ((side === 0 || side === 4) && back === 2))) {
    return "fen.elephant_point";
  }
  if (p.kind === "P" && back < 3) return "fen.soldier_behind";
  return null;
}

// Could a piece of ``by`` move onto ``target`` by its capture rule (docs/rules.md §4)?
function attacked(pieces, target, by) {
  const occupied = (file, rank) => state.pieces.has(`${FILES[file]}${rank}`);
  const between = (p) => {
    let count = 0;
    const df = Math.sign(target.file - p.file);
    const dr = Math.sign(target.rank - p.rank);
    for (let f = p.file + df, r = p.rank + dr; f !== target.file || r !== target.rank; f += df, r += dr) {
      if (occupied(f, r)) count += 1;
    }
    return count;
  };
  return pieces.some((p) => {
    if (p.colour !== by) return false;
    const df = target.file - p.file;
    const dr = target.rank - p.rank;
    const line = (df === 0) !== (dr === 0);
    const far = Math.max(Math.abs(df), Math.abs(dr));
    switch (p.kind) {
      case "R":
      case "M":
        return line && between(p) === 0;
      case "C":
        return line && between(p) === 1;
      case "K": // the flying general
        return df === 0 && dr !== 0 && between(p) === 0;
      case "N":
        if (far !== 2 || Math.abs(df) + Math.abs(dr) !== 3) return false;
        return Math.abs(dr) === 2
          ? !occupied(p.file, p.rank + Math.sign(dr))
          : !occupied(p.file + Math.sign(df), p.rank);
      case "F": {
        if (far !== 3 || Math.abs(df) + Math.abs(dr) !== 4) return false;
        const [sf, sr] = Math.abs(dr) === 3 ? [0, Math.sign(dr)] : [Math.sign(df), 0];
        return !(occupied(p.file + sf, p.rank + sr) && occupied(p.file + 2 * sf, p.rank + 2 * sr));
      }
      case "P": {
        const forward = p.colour === "red" ? 1 : -1;
        const crossed = p.colour === "red" ? p.rank >= 5 : p.rank <= 4;
        return (df === 0 && dr === forward) || (dr === 0 && Math.abs(df) === 1 && crossed);
      }
      default:
        return false; // advisors and elephants never leave their own half
    }
  });
}

// The first fault of the position the editor can see itself, said as the server says it, or
// null when only the server can tell.
function localFault() {
  const M = L.position;
  const say = (key, values = {}) => format(M[key], values);
  const rules = page.rules[state.variant];
  // in the server's order: the goal and the length, then the position
  if (el("editor-goal").value === "dead_general" && !rules.dead_general) {
    return say("puzzle.dead_general_needs_feidan");
  }
  const n = Number(el("editor-n").value) || 1;
  if (n < 1 || n > page.max_moves) return say("puzzle.moves_range", { limit: page.max_moves });
  const pieces = placedPieces();
  const generals = { red: [], black: [] };
  for (const p of pieces) {
    const code = pointFault(p);
    if (code) return say(`${code} ${p.colour}`, { square: p.point, rank: p.rank });
    if (p.kind === "K") generals[p.colour].push(p);
  }
  for (const colour of ["red", "black"]) {
    const found = generals[colour];
    if (!found.length) return say(`fen.no_general ${colour}`);
    if (found.length > 1) {
      return say(`fen.two_generals ${colour}`, { count: found.length, rank: found[found.length - 1].rank });
    }
  }
  for (const limit of rules.limits) {
    const mine = { red: 0, black: 0 };
    const turncoats = { red: 0, black: 0 };
    for (const p of pieces) {
      if (p.kind !== limit.letter) continue;
      mine[p.colour] += 1;
      if (p.turncoat) turncoats[p.colour] += 1;
    }
    for (const colour of ["red", "black"]) {
      if (mine[colour] > limit.per_side) {
        return say(`fen.too_many_pieces ${colour} ${limit.piece}`, { count: mine[colour], limit: limit.per_side });
      }
      if (turncoats[colour] > limit.turncoats) {
        return say(`fen.too_many_turncoats ${colour} ${limit.piece}`, {
          count: turncoats[colour],
          limit: limit.turncoats,
        });
      }
    }
    const both = mine.red + mine.black;
    if (limit.together !== null && both > limit.together) {
      return say(`fen.too_many_on_board ${limit.piece}`, { count: both, limit: limit.together });
    }
  }
  const waiting = state.turn === "w" ? "black" : "red";
  const general = generals[waiting][0];
  if (attacked(pieces, general, state.turn === "w" ? "red" : "black")) {
    return say(`fen.other_side_in_check ${waiting}`, { rank: general.rank });
  }
  return null;
}

// -- the server's check ---------------------------------------------------------------------

// A fault the board shows at once; a position that passes is sent to the server a moment after
// the last change (placing pieces one by one asks once, for the position the author stops at).
function scheduleCheck() {
  clearTimeout(state.checkTimer);
  state.checkSeq += 1; // an answer still on its way is for an earlier position
  const fault = localFault();
  if (fault) {
    showCheck(false, fault);
    return;
  }
  // The verdict on the position before is not this one's: the line says so until the answer.
  const box = el("editor-check");
  box.textContent = L.checking;
  box.dataset.ok = "";
  box.className = "status status-pending";
  state.checkTimer = setTimeout(check, 300);
}

async function check() {
  const seq = ++state.checkSeq;
  const body = form();
  delete body.title;
  delete body.mode;
  try {
    const answer = await api("POST", page.api.check, body);
    if (seq !== state.checkSeq) return true;
    showCheck(true, format(L.legal, { turn: answer.turn === "red" ? L.red : L.black }));
    return true;
  } catch (error) {
    if (seq !== state.checkSeq) return false;
    // A refused position is an answer (the reason, in the reader's language); anything else
    // (the network, the server) is a failure to ask.
    const refused = (error.illegal || error.status === 400) && error.data && error.data.error && error.data.error.code;
    showCheck(false, refused ? error.message : L.error);
    return false;
  }
}

function showResult(text, kind, link) {
  const box = el("editor-result");
  box.textContent = text;
  box.dataset.kind = kind;
  // the share link in a box of the sidebar's width, with its copy button
  el("share-box").hidden = !link;
  el("share-link").value = link || "";
}

async function save() {
  const body = form();
  let puzzle;
  if (state.id) {
    puzzle = await api("PATCH", urlFor(page.api.detail, state.id), body);
  } else {
    puzzle = await api("POST", page.api.create, body);
    state.id = puzzle.id;
    history.replaceState(null, "", `${location.pathname.replace(/create\/?(\d+\/)?$/, "create/")}${puzzle.id}/`);
  }
  return puzzle;
}

async function onSave() {
  try {
    await save();
    showResult(L.saved, "saved");
  } catch (error) {
    showResult(error.message || L.error, "error");
  }
}

// Where the puzzle is while it is verified: its place in the queue, then the prover's stage
// and work so far, against the budget (the bar: the stage's first moves tried, or the time).
function showProving(puzzle) {
  const box = el("editor-progress");
  const proving = puzzle && puzzle.status === "verifying" ? puzzle.proving : null;
  box.hidden = !proving;
  if (!proving) return;
  const bar = el("editor-bar");
  const work = el("editor-work");
  if (proving.state === "waiting") {
    box.dataset.stage = "waiting";
    el("editor-stage").textContent = proving.ahead > 0 ? format(L.waiting, { n: proving.ahead }) : L.waiting_next;
    bar.removeAttribute("value"); // indeterminate: nothing to measure yet
    work.textContent = "";
    return;
  }
  const progress = proving.progress || {};
  const stage = progress.stage || "start";
  box.dataset.stage = stage;
  el("editor-stage").textContent = keepNumbersWithUnits(
    format(L.stages[stage] || L.stages.start, {
      n: puzzle.moves_to_win,
      done: progress.done || 0,
      total: progress.total || 0,
    }),
  );
  if (stage === "unique" && progress.total) {
    bar.value = Math.min(1, progress.done / progress.total);
  } else if (progress.seconds) {
    bar.value = Math.min(1, progress.seconds / proving.seconds);
  } else {
    bar.removeAttribute("value");
  }
  work.textContent = progress.nodes
    ? keepNumbersWithUnits(
        format(L.work, {
          nodes: progress.nodes.toLocaleString(document.documentElement.lang || undefined),
          seconds: Math.round(progress.seconds),
          limit: Math.round(proving.seconds),
        }),
      )
    : "";
}

// A number stays on the line of the word after it ("150 s", "150 秒"): on a phone the lines of
// the progress box wrap, and a unit alone at the start of a line reads badly.
function keepNumbersWithUnits(text) {
  return text.replace(/(\d) (?=\S)/g, "$1\u00a0");
}

// On a phone the form runs on below the board, and what the author waits for opens under the
// fold: bring it into view, unless it is in view already (on a laptop it is, beside the board).
// ``grows``: the element will grow (the progress box gains its stage and work lines), so it
// needs as much room again below it. Only when it opens, never at each answer: the author may
// scroll away to look at the board.
function bringIntoView(element, { grows = false } = {}) {
  const box = element.getBoundingClientRect();
  const room = grows ? box.height : 0;
  if (box.top < 0 || box.bottom + room > window.innerHeight) element.scrollIntoView({ block: "center" });
}

// Follow a puzzle being verified until the prover is done with it; ``reveal``: the author has
// just submitted it, and is shown the progress and then the verdict wherever they are.
async function follow(puzzle, { reveal = false } = {}) {
  showResult(L.verifying, "verifying");
  showProving(puzzle);
  if (reveal && !el("editor-progress").hidden) bringIntoView(el("editor-progress"), { grows: true });
  el("editor-submit").disabled = true;
  for (let i = 0; i < 900 && puzzle.status === "verifying"; i++) {
    await sleep(i < 20 ? 500 : 1000);
    try {
      puzzle = await api("GET", urlFor(page.api.detail, state.id));
      showProving(puzzle);
    } catch (_error) {
      // keep waiting
    }
  }
  showProving(null);
  el("editor-submit").disabled = false;
  if (puzzle.status === "published") {
    showResult(L.published, "published", puzzle.share_url);
    if (reveal) bringIntoView(el("share-box"));
  } else if (puzzle.status === "rejected") {
    showResult(format(L.rejected, { reason: puzzle.rejection_reason }), "rejected");
    if (reveal) bringIntoView(el("editor-result"));
  }
}

async function onSubmit() {
  let puzzle;
  try {
    await save();
    puzzle = await api("POST", urlFor(page.api.submit, state.id));
  } catch (error) {
    showResult(error.message || L.error, "error");
    return;
  }
  await follow(puzzle, { reveal: true });
}

el("editor-variant").addEventListener("change", (event) => {
  state.variant = event.target.value;
  parseFen(EMPTY[state.variant]);
  if (!PIECES[state.variant].includes(state.tool.toUpperCase())) state.tool = "K";
  renderPalette();
  changed({ remount: true });
});
el("editor-turn").addEventListener("change", (event) => {
  state.turn = event.target.value;
  changed();
});
const settingChanged = () => {
  showResult("", "");
  scheduleCheck();
};
el("editor-goal").addEventListener("change", settingChanged);
el("editor-mode").addEventListener("change", () => showResult("", ""));
el("editor-n").addEventListener("change", settingChanged);
el("copy-link").addEventListener("click", () => copyLink(el("share-link"), el("copy-link"), L.copied));
el("editor-fen").addEventListener("change", (event) => {
  const input = event.target;
  try {
    parseFen(input.value);
  } catch (error) {
    // The board stays as it was; the typed text stays too, to be corrected.
    if (!(error instanceof FenError)) throw error;
    clearTimeout(state.checkTimer);
    state.checkSeq += 1; // an answer still on its way is for the board, not this text
    input.setAttribute("aria-invalid", "true");
    showCheck(false, error.message);
    return;
  }
  input.removeAttribute("aria-invalid");
  el("editor-turn").value = state.turn;
  changed();
});
el("editor-clear").addEventListener("click", () => {
  parseFen(EMPTY[state.variant]);
  el("editor-turn").value = state.turn;
  changed();
});
el("editor-start").addEventListener("click", () => {
  const variant = page.variants.find((v) => v.name === state.variant);
  parseFen(variant.start || EMPTY[state.variant]);
  el("editor-turn").value = state.turn;
  changed();
});
el("editor-save").addEventListener("click", onSave);
el("editor-submit").addEventListener("click", onSubmit);

if (page.puzzle) {
  parseFen(page.puzzle.fen);
  el("editor-goal").value = page.puzzle.goal;
  el("editor-n").value = String(page.puzzle.moves_to_win);
  el("editor-title").value = page.puzzle.title || "";
  el("editor-mode").value = page.puzzle.mode || "full";
} else if (page.initial) {
  parseFen(page.initial.fen);
} else {
  parseFen(EMPTY[state.variant]);
}
el("editor-variant").value = state.variant;
el("editor-turn").value = state.turn;
renderPalette();
changed({ remount: true });
window.puzzleEditor = { state, board: () => board, fen };
document.body.dataset.ready = "1";
// A puzzle still being verified (the page opened again while it waits): follow it.
if (page.puzzle && page.puzzle.status === "verifying") {
  api("GET", urlFor(page.api.detail, state.id)).then(follow, () => showResult(L.verifying, "verifying"));
}
