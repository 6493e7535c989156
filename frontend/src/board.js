/**
 * The interactive xiangqi board shared by the analysis board, lessons, puzzles and the editor.
 *
 *   import { mountBoard } from "/static/build/board.js";
 *   const board = mountBoard(element, {
 *     variant: "xiangqi",          // "xiangqi" | "xinban" (9x10) | "feidan" (11x10)
 *     fen: "rnbakabnr/9/... w - - 0 1",
 *     orientation: "red",          // side at the bottom: "red" | "black"
 *     movable: "red",              // who may move pieces: "red" | "black" | "both" | null
 *     dests: ["h2e2", "b0c2"],     // legal moves in ICCS: drawn as dots, the only moves allowed
 *     lastMove: "h2e2",            // highlighted
 *     check: "e0",                 // the point of a general in check, highlighted
 *     shapes: [{ from: "h2", to: "e2", brush: "green" }, { at: "e4", brush: "red" }],
 *     onMove: (iccs) => {},        // called after the user moves ("h2e2")
 *     coordinates: false,          // ICCS letters and digits shown until the user chooses
 *     fitBelow: [element],         // what must stay on screen under the board (editor palette)
 *     sound: true,                 // a sound for each move shown, with a Sound button (sound.js)
 *     premove: false,              // the movable side may move during the other's turn: kept,
 *                                  // drawn, and played by board.playPremove() once it is legal
 *     onPremove: (iccs) => {},     // a premove set ("h2e2") or let go (null)
 *   });
 *   board.set({ fen, dests, lastMove, check, movable, shapes }); // any subset
 *   board.flip(); board.orientation(); board.destroy();
 *
 * Points are named in ICCS: files a..i (a..k on the 11-file board) from Red's left, ranks 0..9
 * from Red's back rank. Brushes: green, red, blue, yellow.
 *
 * The board owns everything that makes it right on any page: mounting again on the same element
 * (another variant) starts from a clean element; its size follows the space it has (the width
 * of its column and the height of the window); it takes focus (arrow keys between points,
 * Enter or Space to pick up and drop, Escape to let go); it names itself, its points and pieces
 * in the page's language; and it shows ICCS coordinates when the user wants them.
 */
import { Chessground } from "chessgroundx";
import { premove as premoveOf } from "chessgroundx/premove";

import { playSound, setSoundOn, soundOn } from "./sound.js";

export { attachMoveInput } from "./moveinput.js";

export const DIMENSIONS = {
  xiangqi: { width: 9, height: 10 },
  xinban: { width: 9, height: 10 },
  feidan: { width: 11, height: 10 },
};

// Chessground names ranks 1..9 then ":" for the tenth; ICCS uses 0..9.
const CG_RANKS = "123456789:";
const FILES = "abcdefghijk";
const COLOR_OF_SIDE = { red: "white", black: "black" };
const SIDE_OF_COLOR = { white: "red", black: "black" };
const RED_NUMERALS = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一"];
const COORDINATES_KEY = "xb-coordinates"; // localStorage: "on" | "off" once the user chose

// The board's own words, in the two languages of the site.
const TEXTS = {
  zh: {
    board: { xiangqi: "象棋棋盘", xinban: "新版象棋棋盘", feidan: "飞弹象棋棋盘" },
    help: "方向键在各点之间移动，回车键或空格键拿起、放下棋子，Esc 键放下不走。",
    empty: "空",
    side: { red: "红", black: "黑" },
    pieces: {
      red: { k: "帅", a: "仕", b: "相", n: "马", r: "车", c: "炮", p: "兵", f: "战机", m: "导弹" },
      black: { k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒", f: "战机", m: "导弹" },
    },
    turncoat: (side, name) => `${side}底${name}`,
    piece: (side, name) => `${side}${name}`,
    point: (point, what) => `${point}：${what}`,
    selected: "已拿起",
    dest: "可以走到这里",
    coordinates: "坐标",
    coordinatesTitle: "显示或隐藏 ICCS 坐标（竖线字母、横线数字）",
    sound: "声音",
    soundTitle: "走棋时发出声音，或关掉声音",
  },
  en: {
    board: { xiangqi: "Xiangqi board", xinban: "New-version Xiangqi board", feidan: "Missile Xiangqi board" },
    help: "Arrow keys move between points; Enter or Space picks up and drops a piece; Escape puts it back.",
    empty: "empty",
    side: { red: "red", black: "black" },
    pieces: {
      red: { k: "general", a: "advisor", b: "elephant", n: "horse", r: "chariot", c: "cannon", p: "soldier", f: "fighter", m: "missile" },
      black: { k: "general", a: "advisor", b: "elephant", n: "horse", r: "chariot", c: "cannon", p: "soldier", f: "fighter", m: "missile" },
    },
    turncoat: (side, name) => `${side} turncoat ${name}`,
    piece: (side, name) => `${side} ${name}`,
    point: (point, what) => `${point}: ${what}`,
    selected: "picked up",
    dest: "can move here",
    coordinates: "Coordinates",
    coordinatesTitle: "Show or hide the ICCS coordinates (file letters, rank digits)",
    sound: "Sound",
    soundTitle: "Play a sound for each move, or keep quiet",
  },
};

/** The language of the page: "zh" or "en". */
export function pageLanguage() {
  const lang = (document.documentElement.lang || "zh").toLowerCase();
  return lang.startsWith("zh") ? "zh" : "en";
}

/** ICCS point ("e0") -> chessground key ("e1"). */
export function iccsToKey(square) {
  const rank = Number(square.slice(1));
  if (!/^[a-k]$/.test(square[0]) || !Number.isInteger(rank) || rank < 0 || rank > 9) {
    throw new Error(`not an ICCS point: ${square}`);
  }
  return square[0] + CG_RANKS[rank];
}

/** Chessground key ("e:") -> ICCS point ("e9"). */
export function keyToIccs(key) {
  const rank = CG_RANKS.indexOf(key[1]);
  if (rank < 0) throw new Error(`not a board key: ${key}`);
  return key[0] + String(rank);
}

/** ICCS move list -> chessground dests (Map of origin key to destination keys). */
export function movesToDests(moves) {
  const dests = new Map();
  for (const move of moves || []) {
    const from = iccsToKey(move.slice(0, 2));
    const to = iccsToKey(move.slice(2, 4));
    if (!dests.has(from)) dests.set(from, []);
    dests.get(from).push(to);
  }
  return dests;
}

function turnColor(fen) {
  const side = (fen || "").trim().split(/\s+/)[1];
  return side === "b" ? "black" : "white";
}

function shapesToCg(shapes) {
  return (shapes || []).map((shape) => {
    const brush = shape.brush || "green";
    if (shape.at) return { orig: iccsToKey(shape.at), brush };
    return { orig: iccsToKey(shape.from), dest: iccsToKey(shape.to), brush };
  });
}

function movableColor(movable) {
  if (movable === "both") return "both";
  return COLOR_OF_SIDE[movable] || undefined;
}

function renderNumerals(row, width, side, ascending) {
  row.textContent = "";
  for (let i = 0; i < width; i++) {
    const number = ascending ? i + 1 : width - i;
    const cell = document.createElement("span");
    cell.textContent = side === "red" ? RED_NUMERALS[number - 1] : String(number);
    row.appendChild(cell);
  }
}

function renderIccs(files, ranks, width, red) {
  files.textContent = "";
  for (let col = 0; col < width; col++) {
    const cell = document.createElement("span");
    cell.textContent = FILES[red ? col : width - 1 - col];
    files.appendChild(cell);
  }
  ranks.textContent = "";
  for (let row = 0; row < 10; row++) {
    const cell = document.createElement("span");
    cell.textContent = String(red ? 9 - row : row);
    ranks.appendChild(cell);
  }
}

function storedCoordinates() {
  try {
    const value = window.localStorage.getItem(COORDINATES_KEY);
    return value === "on" ? true : value === "off" ? false : null;
  } catch {
    return null;
  }
}

function storeCoordinates(on) {
  try {
    window.localStorage.setItem(COORDINATES_KEY, on ? "on" : "off");
  } catch {
    // private mode: the choice lasts for this page only
  }
}

const BASE_ROLES = new Set(["k-piece", "a-piece", "b-piece", "n-piece", "r-piece", "c-piece", "p-piece"]);

/**
 * Where a piece may be premoved to: its moves on an empty board for the pieces of traditional
 * xiangqi (chessgroundx's), any point not held by its own side for the others (a turncoat, a
 * fighter, a missile); the move is checked against the legal moves when the turn comes.
 */
function premoves(variant, dims) {
  const xiangqi = premoveOf("xiangqi", false, dims);
  const keys = [];
  for (let file = 0; file < dims.width; file++) {
    for (let rank = 0; rank < dims.height; rank++) keys.push(FILES[file] + CG_RANKS[rank]);
  }
  return (boardState, key, canCastle) => {
    const piece = boardState.pieces.get(key);
    if (!piece) return [];
    if (BASE_ROLES.has(piece.role)) return xiangqi(boardState, key, canCastle);
    return keys.filter((to) => {
      const there = boardState.pieces.get(to);
      return to !== key && (!there || there.color !== piece.color);
    });
  };
}

/** How many pieces the FEN's board holds. */
function pieceCount(fen) {
  return ((fen || "").split(" ")[0].match(/[a-z]/gi) || []).length;
}

function div(className) {
  const node = document.createElement("div");
  node.className = className;
  return node;
}

let boardCount = 0;

/** The height of the window with a phone's address bar shown (100svh): the board does not
 * change size while the bar slides in and out, nor when the on-screen keyboard opens. */
function viewportHeight() {
  const probe = document.createElement("div");
  probe.style.cssText = "position:fixed;top:0;left:0;width:0;height:100svh;visibility:hidden;pointer-events:none";
  document.body.appendChild(probe);
  const height = probe.offsetHeight;
  probe.remove();
  return height > 0 ? height : window.innerHeight;
}

export function mountBoard(element, options = {}) {
  const variant = options.variant || "xiangqi";
  const dims = options.dimensions || DIMENSIONS[variant];
  if (!dims) throw new Error(`unknown variant: ${variant}`);
  const texts = TEXTS[options.lang || pageLanguage()] || TEXTS.zh;
  // A board mounted on this element before (another variant, say) is taken down first, and
  // nothing of it stays: classes, sizes and data belong to the board shown now.
  if (element.xbBoard) element.xbBoard.destroy();
  for (const name of [...element.classList]) if (name.startsWith("xb-")) element.classList.remove(name);
  let current = {
    fen: options.fen || "",
    orientation: options.orientation || "red",
    movable: options.movable === undefined ? null : options.movable,
    dests: options.dests || [],
    lastMove: options.lastMove || null,
    check: options.check || null,
    shapes: options.shapes || [],
    premove: Boolean(options.premove),
  };
  let onMove = options.onMove || null;
  const onPremove = options.onPremove || null;
  const fitBelow = options.fitBelow || [];
  let coordinatesOn = storedCoordinates() ?? Boolean(options.coordinates);

  const id = `xb-${++boardCount}`;
  element.classList.add("xb-board", `xb-${dims.width}x${dims.height}`, `xb-variant-${variant}`);
  element.textContent = "";
  const top = div("xb-coords xb-coords-top");
  const ranks = div("xb-ranks");
  const stage = div("xb-stage");
  const wrap = div("cg-wrap xb-wrap");
  const cursor = div("xb-cursor");
  const bottom = div("xb-coords xb-coords-bottom");
  const files = div("xb-files");
  const bar = div("xb-bar");
  const toggle = document.createElement("button");
  const live = div("xb-live");
  const help = div("xb-help");
  ranks.setAttribute("aria-hidden", "true");
  files.setAttribute("aria-hidden", "true");
  top.setAttribute("aria-hidden", "true");
  bottom.setAttribute("aria-hidden", "true");
  toggle.type = "button";
  toggle.className = "xb-coordinates-toggle";
  toggle.textContent = `${texts.coordinates} a–${FILES[dims.width - 1]}`;
  toggle.title = texts.coordinatesTitle;
  bar.appendChild(toggle);
  const withSound = Boolean(options.sound);
  const soundToggle = document.createElement("button");
  if (withSound) {
    soundToggle.type = "button";
    soundToggle.className = "xb-sound-toggle";
    soundToggle.textContent = texts.sound;
    soundToggle.title = texts.soundTitle;
    soundToggle.setAttribute("aria-pressed", String(soundOn()));
    soundToggle.addEventListener("click", () => {
      setSoundOn(!soundOn());
      soundToggle.setAttribute("aria-pressed", String(soundOn()));
    });
    bar.appendChild(soundToggle);
  }
  live.setAttribute("aria-live", "polite");
  live.id = `${id}-live`;
  help.id = `${id}-help`;
  help.textContent = texts.help;
  wrap.setAttribute("role", "application");
  wrap.setAttribute("aria-label", options.label || texts.board[variant] || texts.board.xiangqi);
  wrap.setAttribute("aria-describedby", help.id);
  wrap.tabIndex = 0;
  stage.append(wrap, cursor);
  element.append(top, ranks, stage, bottom, files, bar, live, help);

  const ground = Chessground(wrap, {
    dimensions: dims,
    coordinates: false,
    autoCastle: false,
    disableContextMenu: true,
    addPieceZIndex: true,
    highlight: { lastMove: true, check: true },
    animation: { enabled: options.animation !== false, duration: 180 },
    premovable: {
      enabled: current.premove,
      showDests: true,
      castle: false,
      premoveFunc: premoves(variant, dims),
      events: {
        set: (orig, dest) => {
          element.dataset.premove = keyToIccs(orig) + keyToIccs(dest);
          if (onPremove) onPremove(element.dataset.premove);
        },
        unset: () => {
          delete element.dataset.premove;
          if (onPremove) onPremove(null);
        },
      },
    },
    draggable: { enabled: true, showGhost: true },
    selectable: { enabled: true },
    drawable: { enabled: true, visible: true },
    movable: {
      free: false,
      showDests: true,
      events: {
        after: (orig, dest) => {
          if (onMove) onMove(keyToIccs(orig) + keyToIccs(dest));
        },
      },
    },
  });

  // One tap is one click. Chessground reads both the touch and, when it lets the browser scroll
  // (a tap on an empty point away from any piece), the mouse events the browser then makes up
  // from the same tap: a point was chosen twice, which the editor read as "place, then take it
  // away again". Ending the touch here stops those made-up mouse events; scrolling by a swipe
  // over the board still works (it is decided when the touch starts and moves).
  wrap.addEventListener(
    "touchend",
    (event) => {
      if (event.cancelable) event.preventDefault();
    },
    { passive: false },
  );

  // Chessground reads a tap against the board's place on the screen as it last measured it (at a
  // resize or a scroll). The board also moves without either (the coordinates switched on, text
  // growing above it), and a tap was then read on the point beside the one under the finger.
  // It measures again at every touch and click.
  for (const type of ["touchstart", "mousedown"]) {
    wrap.addEventListener(type, () => ground.state.dom.bounds.clear(), { capture: true, passive: true });
  }

  // A tap just beside the board (on the numerals above and below it, or the ICCS letters and
  // digits) is read as a tap on the nearest point: on a phone's 11-file board the points on the
  // edge have as much room for a finger as the others. Up to half a point beyond the board.
  function nearestPoint(x, y) {
    const rect = wrap.getBoundingClientRect();
    const cellWidth = rect.width / dims.width;
    const cellHeight = rect.height / dims.height;
    const col = Math.floor((x - rect.left) / cellWidth);
    const row = Math.floor((y - rect.top) / cellHeight);
    const beyond = (value, low, high, cell) => Math.max(low - value, value - high, 0) / cell;
    if (beyond(x, rect.left, rect.right, cellWidth) > 0.5) return null;
    if (beyond(y, rect.top, rect.bottom, cellHeight) > 0.5) return null;
    const clamp = (value, count) => Math.min(count - 1, Math.max(0, value));
    return pointAt(clamp(col, dims.width), clamp(row, dims.height));
  }
  for (const margin of [top, bottom, ranks, files]) {
    margin.addEventListener("click", (event) => {
      const point = nearestPoint(event.clientX, event.clientY);
      if (!point) return;
      const key = iccsToKey(point);
      // as a tap on the point: it picks up, drops, moves or places; on the picked-up piece, lets go
      const before = ground.state.selectable.selected;
      ground.selectSquare(key);
      if (before === key) ground.selectSquare(null);
    });
  }

  // --- coordinates ------------------------------------------------------------------------------

  function showCoordinates() {
    element.classList.toggle("xb-iccs", coordinatesOn);
    toggle.setAttribute("aria-pressed", String(coordinatesOn));
  }
  toggle.addEventListener("click", () => {
    coordinatesOn = !coordinatesOn;
    storeCoordinates(coordinatesOn);
    showCoordinates();
    fit();
  });
  showCoordinates();

  // --- size: the whole board inside the space it has --------------------------------------------

  let fitted = 0;
  function fit() {
    const parent = element.parentElement;
    if (!parent || !element.isConnected) return;
    const style = getComputedStyle(parent);
    const availableWidth =
      parent.clientWidth - parseFloat(style.paddingLeft || "0") - parseFloat(style.paddingRight || "0");
    const viewport = viewportHeight();
    const rect = element.getBoundingClientRect();
    const pageTop = rect.top + window.scrollY;
    const below = fitBelow.reduce((sum, node) => sum + (node && !node.hidden ? node.offsetHeight : 0), 0);
    const margin = 8;
    let availableHeight = viewport - pageTop - below - margin;
    // Far down the page (a phone, with the task above the board): fit it when scrolled to.
    if (availableHeight < viewport * 0.55) availableHeight = viewport - below - 2 * margin;
    const around = element.offsetHeight - stage.offsetHeight; // coordinate rows and the bar
    // the rank digits, to the fraction of a pixel: the points get a whole number each
    const side = element.getBoundingClientRect().width - stage.getBoundingClientRect().width;
    const byHeight = ((availableHeight - around) * dims.width) / dims.height;
    // A whole number of pixels per file: chessground draws on such a grid, so the pieces, the
    // lines and the points a click is read on are the same.
    const perFile = Math.floor(Math.min(availableWidth - side, byHeight) / dims.width);
    const width = Math.max(18, perFile) * dims.width + side;
    if (Math.abs(width - fitted) >= 0.01) {
      fitted = width;
      element.style.maxWidth = `${width}px`;
    }
    element.dataset.fitted = String(width);
  }
  const observer = "ResizeObserver" in window ? new ResizeObserver(() => fit()) : null;
  if (observer) {
    observer.observe(document.body);
    if (element.parentElement) observer.observe(element.parentElement);
  }
  window.addEventListener("resize", fit);

  // --- keyboard and screen readers --------------------------------------------------------------

  let focus = null; // ICCS point under the keyboard cursor

  function pieceName(point) {
    const piece = ground.state.boardState.pieces.get(iccsToKey(point));
    if (!piece) return texts.empty;
    const side = SIDE_OF_COLOR[piece.color];
    let role = piece.role.replace("-piece", "");
    const turncoat = role.length === 2 && role[0] === "p";
    if (turncoat) role = role[1];
    const name = (texts.pieces[side] || {})[role] || role;
    return turncoat ? texts.turncoat(texts.side[side], name) : texts.piece(texts.side[side], name);
  }

  /** What a point is called, with what stands on it: "c3：红兵", "e0: red general". */
  function describe(point) {
    const parts = [pieceName(point)];
    const key = iccsToKey(point);
    const selected = ground.state.selectable.selected;
    if (selected === key) parts.push(texts.selected);
    else if (selected && (ground.state.movable.dests?.get(selected) || []).includes(key)) parts.push(texts.dest);
    return texts.point(point, parts.join(texts === TEXTS.zh ? "，" : ", "));
  }

  function screenCell(point) {
    const file = FILES.indexOf(point[0]);
    const rank = Number(point.slice(1));
    const red = current.orientation !== "black";
    return { col: red ? file : dims.width - 1 - file, row: red ? dims.height - 1 - rank : rank };
  }

  function pointAt(col, row) {
    const red = current.orientation !== "black";
    const file = red ? col : dims.width - 1 - col;
    const rank = red ? dims.height - 1 - row : row;
    return FILES[file] + String(rank);
  }

  function drawCursor() {
    if (!focus) return;
    const { col, row } = screenCell(focus);
    cursor.style.left = `${(col * 100) / dims.width}%`;
    cursor.style.top = `${(row * 100) / dims.height}%`;
    cursor.style.width = `${100 / dims.width}%`;
    cursor.style.height = `${100 / dims.height}%`;
    element.dataset.focus = focus;
  }

  function announce(text) {
    live.textContent = text;
  }

  function moveFocus(point) {
    focus = point;
    drawCursor();
    announce(describe(point));
  }

  wrap.addEventListener("focus", () => {
    element.classList.add("xb-focused");
    if (!focus) {
      const selected = ground.state.selectable.selected;
      focus = selected
        ? keyToIccs(selected)
        : FILES[Math.floor(dims.width / 2)] + (current.orientation === "black" ? "9" : "0");
    }
    moveFocus(focus);
  });
  wrap.addEventListener("blur", () => element.classList.remove("xb-focused"));
  wrap.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!focus) focus = FILES[Math.floor(dims.width / 2)] + "0";
    if (event.key in steps) {
      const [dx, dy] = steps[event.key];
      const { col, row } = screenCell(focus);
      const nextCol = Math.min(dims.width - 1, Math.max(0, col + dx));
      const nextRow = Math.min(dims.height - 1, Math.max(0, row + dy));
      moveFocus(pointAt(nextCol, nextRow));
    } else if (event.key === "Enter" || event.key === " ") {
      const key = iccsToKey(focus);
      // The same as a click on the point: the page hears it as a click, a move or a placement.
      if (ground.state.selectable.selected === key) ground.selectSquare(null);
      else ground.selectSquare(key);
      announce(describe(focus));
    } else if (event.key === "Escape") {
      ground.selectSquare(null);
      announce(describe(focus));
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });

  // --- sound: each new move shown (not the first position, not a flip) ----------------------

  let heard = { fen: current.fen, lastMove: current.lastMove };
  let played = []; // the kinds played, latest last (the page's tests read them)
  function sound() {
    const before = heard.fen;
    const moved = current.lastMove && current.fen !== before && current.lastMove !== heard.lastMove;
    heard = { fen: current.fen, lastMove: current.lastMove };
    if (!withSound || !moved) return;
    const kind = current.check ? "check" : pieceCount(current.fen) < pieceCount(before) ? "capture" : "move";
    element.dataset.lastSound = kind;
    if (playSound(kind)) {
      played = [...played.slice(-7), kind];
      element.dataset.soundsPlayed = played.join(" ");
    }
  }

  function apply() {
    const cgOrientation = COLOR_OF_SIDE[current.orientation] || "white";
    ground.set({
      fen: current.fen,
      orientation: cgOrientation,
      turnColor: turnColor(current.fen),
      lastMove: current.lastMove
        ? [iccsToKey(current.lastMove.slice(0, 2)), iccsToKey(current.lastMove.slice(2, 4))]
        : undefined,
      check: current.check ? [iccsToKey(current.check)] : false,
      movable: { color: movableColor(current.movable), dests: movesToDests(current.dests) },
      premovable: { enabled: current.premove },
      drawable: { autoShapes: shapesToCg(current.shapes) },
    });
    if (!current.lastMove) ground.state.lastMove = undefined;
    const bottomSide = current.orientation === "black" ? "black" : "red";
    const topSide = bottomSide === "red" ? "black" : "red";
    renderNumerals(bottom, dims.width, bottomSide, false);
    renderNumerals(top, dims.width, topSide, true);
    renderIccs(files, ranks, dims.width, bottomSide === "red");
    element.dataset.orientation = current.orientation;
    element.dataset.fen = current.fen;
    element.dataset.variant = variant;
    drawCursor();
    fit();
    sound();
  }
  apply();

  const board = {
    element,
    ground,
    variant,
    dimensions: dims,
    /** Change any of: fen, orientation, movable, dests, lastMove, check, shapes, premove, onMove. */
    set(changes) {
      if ("onMove" in changes) onMove = changes.onMove;
      current = { ...current, ...changes };
      delete current.onMove;
      apply();
    },
    flip() {
      current.orientation = current.orientation === "red" ? "black" : "red";
      apply();
      return current.orientation;
    },
    orientation() {
      return current.orientation;
    },
    /** The side whose turn it is in the shown position. */
    turn() {
      return SIDE_OF_COLOR[turnColor(current.fen)];
    },
    /** The position shown (FEN) and the legal moves given to the board (ICCS). */
    fen() {
      return current.fen;
    },
    dests() {
      return current.dests.slice();
    },
    /** What a point is called, in the page's language ("c3：红兵"). */
    describe,
    /** Whether the ICCS coordinates are shown. */
    coordinates() {
      return coordinatesOn;
    },
    /** Play the premove set, if the legal moves given now allow it: whether it was played (the
     * page hears it through onMove); one they do not allow is let go. */
    playPremove() {
      return ground.playPremove();
    },
    /** Let go of a premove set (the game went on another way). */
    cancelPremove() {
      ground.cancelPremove();
    },
    /** Recompute the size (after the page moved things around the board). */
    fit,
    /** Position in the viewport (CSS pixels) of the centre of an ICCS point. */
    pointCenter(square) {
      const rect = wrap.getBoundingClientRect();
      const { col, row } = screenCell(square);
      return {
        x: rect.left + ((col + 0.5) * rect.width) / dims.width,
        y: rect.top + ((row + 0.5) * rect.height) / dims.height,
      };
    },
    destroy() {
      if (observer) observer.disconnect();
      window.removeEventListener("resize", fit);
      ground.destroy();
      element.textContent = "";
      for (const name of [...element.classList]) if (name.startsWith("xb-")) element.classList.remove(name);
      element.style.maxWidth = "";
      for (const name of ["orientation", "fen", "variant", "focus", "fitted", "lastSound", "soundsPlayed", "premove"]) {
        delete element.dataset[name];
      }
      if (element.xbBoard === board) delete element.xbBoard;
    },
  };
  element.xbBoard = board;
  return board;
}
