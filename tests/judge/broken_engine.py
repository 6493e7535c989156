"""A broken UCI engine for the adapter's tests: a small program that speaks just enough UCI to
be started, and then fails in the way its first argument says.

    python broken_engine.py MODE [STATE_FILE]

- ``hang``: answers the handshake, never answers ``go``;
- ``die``: ends as soon as it is asked to search;
- ``die_once``: ends on its first search ever (it leaves ``STATE_FILE`` behind), answers the
  next process's search;
- ``garbage_score``: reports a score that is not a number;
- ``garbage_line``: answers a search with a line that is not UCI;
- ``bad_move``: names a move that is not legal;
- ``no_move``: answers every search with ``bestmove (none)``;
- ``no_xiangqi``: offers no xiangqi;
- ``silent``: never ends the handshake;
- ``not_uci``: ends at once.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    state = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    if mode == "not_uci":
        return
    for line in sys.stdin:
        command = line.split()
        if not command:
            continue
        if command[0] == "uci":
            if mode == "silent":
                continue
            say("id name Broken 0.1")
            variants = "var chess" if mode == "no_xiangqi" else "var chess var xiangqi"
            say(f"option name UCI_Variant type combo default chess {variants}")
            say("uciok")
        elif command[0] == "isready":
            say("readyok")
        elif command[0] == "go":
            if mode == "hang":
                time.sleep(3600)
            elif mode == "die":
                return
            elif mode == "die_once" and state is not None and not state.exists():
                state.write_text("died once\n")
                return
            elif mode == "garbage_score":
                say("info depth 1 score cp lots nodes 10 pv h3e3")
                say("bestmove h3e3")
            elif mode == "garbage_line":
                say("I am not an engine")
            elif mode == "bad_move":
                say("info depth 1 score cp 10 nodes 10 pv a1a9")
                say("bestmove a1a9")
            elif mode == "no_move":
                say("bestmove (none)")
            else:  # a good answer: the central cannon, a little better for Red
                say("info depth 1 seldepth 1 multipv 1 score cp 12 nodes 10 pv h3e3 h10g8")
                say("bestmove h3e3 ponder h10g8")
        elif command[0] == "quit":
            return


if __name__ == "__main__":
    main()
