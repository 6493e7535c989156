// A typed move, the same on every page that has a board: ICCS ("h2e2", "H2-E2") or Chinese
// notation ("炮二平五"), read against the position the board shows. Chinese notation is read by
// the site (POST /api/positions/, the engine's own reader), so every form the engine knows is
// understood and a wrong one is explained in the page's language.
//
//   attachMoveInput(form, {
//     board: () => board,            // the board now shown (pages mount a new one per variant)
//     onMove: async (iccs) => {},    // play it as if the pieces had been moved by hand;
//                                    // answer false to give the text back (the move was refused)
//     onPoint: (point) => {},        // optional: a single point typed ("c3"), as a click on it
//     showError: (message) => {},    // optional: where to say what went wrong (default: in the form)
//   });
//
// The form is templates/core/_move_input.html: an input, a button, an error line, and the
// address of the positions API in data-positions-url.

import { api } from "../../core/static/core/api.js";

const ICCS_MOVE = /^([a-k])([0-9])\s*[-–]?\s*([a-k])([0-9])$/;
const ICCS_POINT = /^([a-k])([0-9])$/;

/** The ICCS of a typed move in the shown position, or throws an Error with the site's reason. */
async function readMove(form, board, text) {
  const plain = text.toLowerCase().replace(/\s+/g, "");
  const iccs = plain.match(ICCS_MOVE);
  if (iccs) {
    const move = iccs[1] + iccs[2] + iccs[3] + iccs[4];
    // A move the board offers (lessons offer their explained mistakes too) goes straight on.
    if (board.dests().includes(move)) return move;
  }
  const data = await api("POST", form.dataset.positionsUrl || "/api/positions/", {
    variant: board.variant,
    fen: board.fen(),
    moves: [text],
  });
  return data.played[0].iccs;
}

export function attachMoveInput(form, { board, onMove, onPoint = null, showError = null }) {
  const input = form.querySelector("input[name=move]");
  const errorLine = form.querySelector(".move-error");
  const say = (message) => {
    if (showError) {
      showError(message);
      return;
    }
    if (!errorLine) return;
    errorLine.textContent = message || "";
    errorLine.hidden = !message;
  };
  let busy = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    const shown = board();
    if (!text || busy || !shown) return;
    say("");
    const point = text.toLowerCase().match(ICCS_POINT);
    if (point && onPoint) {
      onPoint(point[0]);
      input.value = "";
      return;
    }
    busy = true;
    form.dataset.busy = "1";
    let move;
    try {
      move = await readMove(form, shown, text);
    } catch (error) {
      say(error.message);
      return;
    } finally {
      busy = false;
      form.dataset.busy = "";
    }
    // Read: the move is the page's now (it may take long, e.g. a puzzle waiting for its score).
    form.dataset.iccs = move;
    input.value = "";
    const accepted = await onMove(move);
    if (accepted === false && !input.value) input.value = text; // refused: the text comes back
  });
  return {
    form,
    input,
    focus: () => input.focus(),
    clear: () => {
      input.value = "";
      say("");
    },
  };
}
