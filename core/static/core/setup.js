// Arranging a secret half of feidan on the board, for the pages that set one up (a game against
// the computer or at one board, a live game). Display and dragging only: whether a half is legal
// is the server's to say (the engine's rules).

const FILES = "abcdefghijk";

/** The pieces of a FEN as point -> letter ("+" kept before a turncoat's letter). */
export function fenPieces(fen) {
  const pieces = {};
  fen.split(" ")[0].split("/").forEach((row, index) => {
    const rank = 9 - index;
    let file = 0;
    for (let i = 0; i < row.length; i++) {
      const ch = row[i];
      if (/\d/.test(ch)) {
        let digits = ch;
        while (i + 1 < row.length && /\d/.test(row[i + 1])) digits += row[++i];
        file += Number(digits);
      } else if (ch === "+") {
        pieces[`${FILES[file]}${rank}`] = `+${row[++i]}`;
        file += 1;
      } else {
        pieces[`${FILES[file]}${rank}`] = ch;
        file += 1;
      }
    }
  });
  return pieces;
}

/** ``color``'s pieces where the start FEN puts them: the half a player starts arranging from. */
export function startHalf(startFen, color) {
  const half = {};
  for (const [point, letter] of Object.entries(fenPieces(startFen))) {
    if ((letter === letter.toUpperCase()) === (color === "red")) half[point] = letter;
  }
  return half;
}

/** Every drag the board may offer while arranging: any piece of the half to any other point. */
export function arrangeDests(placement, width) {
  const points = [];
  for (let rank = 0; rank < 10; rank++) {
    for (let file = 0; file < width; file++) points.push(`${FILES[file]}${rank}`);
  }
  const dests = [];
  for (const origin of Object.keys(placement)) {
    for (const target of points) if (target !== origin) dests.push(origin + target);
  }
  return dests;
}

/** The half after one drag (``iccs``): dropped on one of one's own, the two pieces swap. */
export function arranged(placement, iccs) {
  const from = iccs.slice(0, 2);
  const to = iccs.slice(2, 4);
  const next = { ...placement };
  const moving = next[from];
  const other = next[to];
  delete next[from];
  next[to] = moving;
  if (other) next[from] = other;
  return next;
}

// The list of what is wrong with a half being arranged (each fault in the reader's language,
// ``pick`` choosing it), or one line saying it is legal (``legal``).
export function listViolations(list, violations, pick, legal) {
  for (const violation of violations) {
    const item = document.createElement("li");
    item.textContent = pick(violation.text);
    item.dataset.code = violation.code;
    list.append(item);
  }
  if (!violations.length) {
    const item = document.createElement("li");
    item.className = "ok";
    item.textContent = legal;
    list.append(item);
  }
}
