/**
 * The interactive xiangqi board shared by the analysis board, lessons and puzzles.
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
 *   });
 *   board.set({ fen, dests, lastMove, check, movable, shapes }); // any subset
 *   board.flip(); board.orientation(); board.destroy();
 *
 * Points are named in ICCS: files a..i (a..k on the 11-file board) from Red's left, ranks 0..9
 * from Red's back rank. Brushes: green, red, blue, yellow.
 */
import { Chessground } from "chessgroundx";

export const DIMENSIONS = {
  xiangqi: { width: 9, height: 10 },
  xinban: { width: 9, height: 10 },
  feidan: { width: 11, height: 10 },
};

// Chessground names ranks 1..9 then ":" for the tenth; ICCS uses 0..9.
const CG_RANKS = "123456789:";
const COLOR_OF_SIDE = { red: "white", black: "black" };
const SIDE_OF_COLOR = { white: "red", black: "black" };
const RED_NUMERALS = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一"];

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

function renderCoordinates(row, width, side, ascending) {
  row.textContent = "";
  for (let i = 0; i < width; i++) {
    const number = ascending ? i + 1 : width - i;
    const cell = document.createElement("span");
    cell.textContent = side === "red" ? RED_NUMERALS[number - 1] : String(number);
    row.appendChild(cell);
  }
}

export function mountBoard(element, options = {}) {
  const variant = options.variant || "xiangqi";
  const dims = options.dimensions || DIMENSIONS[variant];
  if (!dims) throw new Error(`unknown variant: ${variant}`);
  let current = {
    fen: options.fen || "",
    orientation: options.orientation || "red",
    movable: options.movable === undefined ? null : options.movable,
    dests: options.dests || [],
    lastMove: options.lastMove || null,
    check: options.check || null,
    shapes: options.shapes || [],
  };
  let onMove = options.onMove || null;

  element.classList.add("xb-board", `xb-${dims.width}x${dims.height}`, `xb-variant-${variant}`);
  element.textContent = "";
  const top = document.createElement("div");
  const wrap = document.createElement("div");
  const bottom = document.createElement("div");
  top.className = "xb-coords xb-coords-top";
  bottom.className = "xb-coords xb-coords-bottom";
  wrap.className = "cg-wrap xb-wrap";
  wrap.setAttribute("role", "application");
  wrap.setAttribute("aria-label", options.label || "board");
  element.append(top, wrap, bottom);

  const ground = Chessground(wrap, {
    dimensions: dims,
    coordinates: false,
    autoCastle: false,
    disableContextMenu: true,
    addPieceZIndex: true,
    highlight: { lastMove: true, check: true },
    animation: { enabled: options.animation !== false, duration: 180 },
    premovable: { enabled: false },
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
      drawable: { autoShapes: shapesToCg(current.shapes) },
    });
    if (!current.lastMove) ground.state.lastMove = undefined;
    const bottomSide = current.orientation === "black" ? "black" : "red";
    const topSide = bottomSide === "red" ? "black" : "red";
    renderCoordinates(bottom, dims.width, bottomSide, false);
    renderCoordinates(top, dims.width, topSide, true);
    element.dataset.orientation = current.orientation;
    element.dataset.fen = current.fen;
  }
  apply();

  return {
    element,
    ground,
    variant,
    dimensions: dims,
    /** Change any of: fen, orientation, movable, dests, lastMove, check, shapes, onMove. */
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
    /** Position in the viewport (CSS pixels) of the centre of an ICCS point. */
    pointCenter(square) {
      const rect = wrap.getBoundingClientRect();
      const file = square.charCodeAt(0) - 97;
      const rank = Number(square.slice(1));
      const red = current.orientation === "red";
      const col = red ? file : dims.width - 1 - file;
      const row = red ? dims.height - 1 - rank : rank;
      return {
        x: rect.left + ((col + 0.5) * rect.width) / dims.width,
        y: rect.top + ((row + 0.5) * rect.height) / dims.height,
      };
    },
    destroy() {
      ground.destroy();
      element.textContent = "";
    },
  };
}
