// Notation the pages share: a move as they show it, and the FEN of a placement.

/** Append `move` ({chinese, iccs}) to `target`: the Chinese notation, a space, the ICCS. */
export function moveText(target, move) {
  const chinese = document.createElement("span");
  chinese.className = "chinese";
  chinese.textContent = move.chinese;
  const iccs = document.createElement("span");
  iccs.className = "iccs";
  iccs.textContent = move.iccs;
  target.append(chinese, " ", iccs);
}

const FILES = "abcdefghijk";

/**
 * A FEN from a placement: `pieceAt(point)` gives the letter on an ICCS point ("a0"…) or nothing,
 * on a board `width` files wide and ten ranks high; `side` moves ("w" or "b").
 */
export function placementFen(pieceAt, width, side) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = "";
    let empty = 0;
    for (let file = 0; file < width; file++) {
      const letter = pieceAt(`${FILES[file]}${rank}`);
      if (!letter) {
        empty += 1;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += letter;
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return `${rows.join("/")} ${side} - - 0 1`;
}
