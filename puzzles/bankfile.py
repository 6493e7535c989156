"""The shipped bank file (``puzzles/data/bank.json``): reading, writing, the classical problems,
and re-proving every entry with the current engine.

Pure Python, no Django: the mining and proving commands write the file, the content loader
reads it, and the re-proving check (a test and ``manage.py reprove_bank``) runs it through the
prover again.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import EngineError, Position
from puzzles import proving
from puzzles.difficulty import starting_rating
from puzzles.mining import bank_key
from puzzles.themes import defender_defection_blocks, derive_themes, retag_patterns

DATA_DIR = Path(__file__).resolve().parent / "data"
BANK_PATH = DATA_DIR / "bank.json"
CLASSICS_PATH = DATA_DIR / "classic-puzzles.json"
BANK_FORMAT = 1
# The last full re-proof of the bank (``manage.py reprove_bank --record``): the digest of what a
# proof depends on (the engine's sources, the proving code, the bank) when every puzzle proved
# sound again, with the count and the time it took.
PROOF_RECORD_PATH = DATA_DIR / "bank-proof.json"
_ROOT = DATA_DIR.parents[1]
ABOUT = (
    "Puzzles shipped with the site, each proved sound and unique by the engine's prover "
    "(engine.solver). Mined puzzles come from seeded candidate positions (manage.py "
    "mine_puzzles); classical problems from classic-puzzles.json that prove sound "
    "(manage.py prove_classics). proof is the prover's proof (Proof.to_data()); main_line the "
    "key, the longest defence and so on; manage.py reprove_bank checks every entry again."
)

# Budgets when proving the classical problems: a full proof first (up to FULL_UP_TO moves),
# then among checks only for the problems whose book line checks all the way (连将杀).
CLASSIC_FULL_UP_TO = 6
# The node budgets are the limits (the same on any machine); the seconds are wall clock, which
# a loaded machine stretches many times (填塞道路: 34 s of CPU, 380 s of wall at a load of 17),
# so they only stop a search that is stuck: they allow the nodes at SLOWEST_NODES_PER_SECOND.
SLOWEST_NODES_PER_SECOND = 20_000
CLASSIC_FULL_NODES = 12_000_000  # no more than re-proving gets (REPROVE_NODES)
CLASSIC_FULL_SECONDS = CLASSIC_FULL_NODES / SLOWEST_NODES_PER_SECOND
CLASSIC_CHECKS_NODES = 1_000_000
CLASSIC_CHECKS_SECONDS = 60.0


def read_bank(path: Path = BANK_PATH) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != BANK_FORMAT:
        raise ValueError(f"{path}: unknown bank format {data.get('format')!r}")
    return list(data["puzzles"])


def write_bank(entries: Iterable[dict[str, Any]], path: Path = BANK_PATH) -> int:
    """Write the bank, one entry per line, sorted (stable diffs); returns the count."""
    unique = {entry["key"]: entry for entry in entries}
    ordered = sorted(
        unique.values(),
        key=lambda e: (
            e["variant"],
            e.get("source", "mined"),
            e["goal"],
            e["moves_to_win"],
            e["key"],
        ),
    )
    lines = ",\n".join(
        json.dumps(e, ensure_ascii=False, sort_keys=True, separators=(",", ":")) for e in ordered
    )
    header = json.dumps({"format": BANK_FORMAT, "about": ABOUT}, ensure_ascii=False)[:-1]
    path.write_text(f'{header}, "puzzles": [\n{lines}\n]}}\n', encoding="utf-8")
    return len(ordered)


# Puzzles taken out of the bank by hand, with why: proved sound, but positions no player would
# meet or learn from. Mining never puts them back (``merge``); loading the bank retires them in
# the database, where the attempts made on them stay (``services.bank.bank_load``).
RETIRED: dict[str, str] = {
    "feidan-16d63a7a6f665dae": "two red missiles stacked on one file beside a general with both "
    "advisors behind it: an absurd construction",
    "feidan-6f3deb00cafe7b97": "the black chariot and horse wall in their own general: an absurd "
    "construction",
}


# Kinds of constructed puzzle retired as a whole, with why: the engine's own games give the
# same wins as moments of real play (Missile Xiangqi's 868 games hold 230 dead generals and 34
# collisions), so a position built around the theme is no longer needed to teach it.
RETIRED_CONSTRUCTIONS: dict[tuple[str, str], str] = {
    ("feidan", "dead_general"): "a constructed dead-general position: the engine's games give "
    "such wins as moments of real play",
    ("feidan", "missile_collision"): "a constructed collision position: the engine's games give "
    "such wins as moments of real play",
}


def retired_reason(entry: dict[str, Any]) -> str | None:
    """Why ``entry`` is kept out of the bank (``RETIRED`` by key, or a constructed puzzle of a
    kind in ``RETIRED_CONSTRUCTIONS``), or None."""
    if entry["key"] in RETIRED:
        return RETIRED[entry["key"]]
    if entry.get("source", "mined") == "mined":
        for theme in entry.get("themes", []):
            reason = RETIRED_CONSTRUCTIONS.get((entry["variant"], theme))
            if reason:
                return reason
    return None


def merge(existing: list[dict[str, Any]], new: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries of ``existing`` and the new ones (a key already there is kept), without the
    retired puzzles (``retired_reason``)."""
    by_key = {entry["key"]: entry for entry in existing}
    for entry in new:
        by_key.setdefault(entry["key"], entry)
    return [entry for entry in by_key.values() if retired_reason(entry) is None]


def entry_themes(entry: dict[str, Any]) -> list[str]:
    """A bank entry's themes with its kill patterns recomputed from its proof's main line."""
    return retag_patterns(
        entry["themes"],
        variant=entry["variant"],
        fen=entry["fen"],
        main_line=entry.get("main_line") or proving.main_line(entry["proof"]),
    )


def retag_bank(path: Path = BANK_PATH) -> int:
    """Rewrite the bank file's themes with the kill patterns the engine finds today; returns
    how many entries changed (``manage.py retag_bank``)."""
    entries = read_bank(path)
    changed = 0
    for entry in entries:
        themes = entry_themes(entry)
        if themes != entry["themes"]:
            entry["themes"] = themes
            changed += 1
    if changed:
        write_bank(entries, path)
    return changed


def rate_entries(entries: list[dict[str, Any]]) -> int:
    """Give every mined entry (and every one from a game) without a rating its starting rating
    from the proof (``puzzles.difficulty``); returns how many were given one. Classical
    problems keep the length-and-themes guess of ``services.bank.initial_rating``."""
    rated = 0
    for entry in entries:
        if entry.get("source", "mined") == "classic" or entry.get("rating") is not None:
            continue
        entry["rating"] = starting_rating(
            variant=entry["variant"],
            fen=entry["fen"],
            proof=entry["proof"],
            main_line=entry.get("main_line") or proving.main_line(entry["proof"]),
        )
        rated += 1
    return rated


# --- Classical problems ---------------------------------------------------------------------

_BOOK_MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def book_move_to_iccs(text: str) -> str:
    """A book move with ranks 1-10 (``g9g10``) in ICCS (``g8g9``)."""
    match = _BOOK_MOVE.match(text)
    if not match:
        raise ValueError(f"not a book move: {text!r}")
    return f"{match[1]}{int(match[2]) - 1}{match[3]}{int(match[4]) - 1}"


@dataclass(frozen=True)
class ClassicOutcome:
    index: int
    title: str
    status: str
    mode: str
    entry: dict[str, Any] | None
    note: str = ""


def prove_classic(index: int, problem: dict[str, Any]) -> ClassicOutcome:
    """Prove one classical problem; the entry when it is sound and unique at its stated length."""
    fen = problem["fen"]
    n = int(problem["mate_in"])
    goal = "win" if problem.get("ending") == "stalemate" else "mate"
    title = problem.get("title", "")
    try:
        Position.from_fen("xiangqi", fen)
        book = [book_move_to_iccs(m) for m in problem.get("solution", [])]
    except (EngineError, ValueError) as error:
        return ClassicOutcome(index, title, "invalid", "", None, str(error))
    modes = []
    if n <= CLASSIC_FULL_UP_TO or not problem.get("all_checks"):
        modes.append((proving.FULL, CLASSIC_FULL_NODES, CLASSIC_FULL_SECONDS))
    if problem.get("all_checks"):
        modes.append((proving.CHECKS_ONLY, CLASSIC_CHECKS_NODES, CLASSIC_CHECKS_SECONDS))
    result = None
    asked = proving.Problem(variant="xiangqi", fen=fen, goal=goal)
    for mode, nodes, seconds in modes:
        result = proving.prove(**asked, moves_to_win=n, nodes=nodes, seconds=seconds, mode=mode)
        if result.status != proving.BUDGET_EXHAUSTED:
            break
    assert result is not None
    if not result.sound or result.proof is None:
        return ClassicOutcome(index, title, result.status, result.mode, None, result.reason)
    note = "" if book and book[0] == result.key_moves[0] else f"book key {book[:1]} differs"
    themes = derive_themes(
        variant="xiangqi",
        fen=fen,
        goal=goal,
        moves_to_win=n,
        main_line=result.main_line,
        mode=result.mode,
    )
    entry = {
        "key": bank_key(variant="xiangqi", fen=fen, goal=goal, moves_to_win=n),
        "variant": "xiangqi",
        "fen": fen,
        "goal": goal,
        "moves_to_win": n,
        "mode": result.mode,
        "themes": [*themes, "classic"],
        "main_line": result.main_line,
        "proof": result.proof,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
        "origin": "classic",
        "seed": index,
        "source": "classic",
        "title": title,
        "collection": problem.get("collection", ""),
    }
    return ClassicOutcome(index, title, result.status, result.mode, entry, note)


def read_classics(path: Path = CLASSICS_PATH) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["puzzles"])


# --- Re-proving -----------------------------------------------------------------------------

# Re-proving gets a generous budget: a shipped puzzle proved once must prove again.
REPROVE_NODES = 12_000_000
REPROVE_SECONDS = REPROVE_NODES / SLOWEST_NODES_PER_SECOND


def proof_inputs() -> list[Path]:
    """Every file a re-proof depends on: the engine's sources (rules, prover, and the playing
    engine beside them: conservative), the proving code and the bank itself."""
    engine = sorted(
        path
        for path in (_ROOT / "engine").rglob("*")
        if path.is_file() and path.suffix in (".py", ".ini") and "__pycache__" not in path.parts
    )
    here = Path(__file__).resolve().parent
    return [*engine, here / "proving.py", here / "bankfile.py", BANK_PATH]


def proof_inputs_digest() -> str:
    """One digest of ``proof_inputs``: their paths and contents."""
    digest = hashlib.sha256()
    for path in proof_inputs():
        digest.update(path.relative_to(_ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def read_proof_record(path: Path = PROOF_RECORD_PATH) -> dict[str, Any] | None:
    """The last full re-proof's record, or None when there is none."""
    if not path.exists():
        return None
    return dict(json.loads(path.read_text(encoding="utf-8")))


def write_proof_record(*, puzzles: int, seconds: float, path: Path = PROOF_RECORD_PATH) -> None:
    """Record a full re-proof in which every one of ``puzzles`` proved sound again."""
    record = {"digest": proof_inputs_digest(), "puzzles": puzzles, "seconds": round(seconds)}
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class Reproof:
    key: str
    ok: bool
    problem: str
    seconds: float


def reprove_entry(entry: dict[str, Any]) -> Reproof:
    """Prove a bank entry again with the current engine: still sound and unique, same length,
    same key, and the stored proof still judges its own main line as a solve."""
    try:
        result = proving.prove(
            variant=entry["variant"],
            fen=entry["fen"],
            goal=entry["goal"],
            moves_to_win=entry["moves_to_win"],
            nodes=REPROVE_NODES,
            seconds=REPROVE_SECONDS,
            mode=entry.get("mode", proving.FULL),
        )
    except EngineError as error:
        return Reproof(entry["key"], False, f"the prover refused it: {error}", 0.0)
    problems = []
    if not result.sound:
        problems.append(f"status {result.status} ({result.reason})")
    elif result.moves_to_win != entry["moves_to_win"]:
        problems.append(f"length {result.moves_to_win}, not {entry['moves_to_win']}")
    elif result.key_moves[:1] != entry["proof"]["keys"][:1]:
        problems.append(f"key {result.key_moves[:1]}, stored {entry['proof']['keys'][:1]}")
    else:
        line = entry.get("main_line") or proving.main_line(entry["proof"])
        verdict = proving.judge(
            proof=entry["proof"],
            moves=line,
            nodes=proving.OFFLINE_NODES,
            seconds=proving.OFFLINE_SECONDS,
        )
        if verdict.verdict != "solved":
            problems.append(f"the stored main line judges as {verdict.verdict}")
    return Reproof(entry["key"], not problems, "; ".join(problems), result.seconds)


# --- Tidying: what leaves the bank, which tags go ----------------------------------------

# Budget of each search that asks whether a mate still holds without a defected piece.
DEFECTION_NODES = 200_000


def random_game_puzzle(entry: dict[str, Any]) -> bool:
    """A puzzle of the old ``game`` strategy: a position of a game played by random moves
    (captures and checks preferred) from a start position, after material thinned out. Their
    defenders are nearly bare (the median defender has 3 pieces against the attacker's 8): one
    side was given the game, and such positions teach little. A puzzle from a real game carries
    its ``source_game`` and is never one of them."""
    return entry.get("origin") == "game" and not entry.get("source_game")


def _continuations(entry: dict[str, Any]) -> set[tuple[str, str, str, int]]:
    """Every position of ``entry``'s proof tree with the attacker to move after the start, as
    (variant, position key, goal, attacker moves left): a puzzle at one of them is the same
    puzzle a move or more on."""
    from puzzles.mining import position_key

    found: set[tuple[str, str, str, int]] = set()
    tree = entry["proof"].get("tree")
    if not tree:
        return found
    position = Position.from_fen(entry["variant"], entry["fen"])

    def walk(node: dict[str, Any]) -> None:
        moves = node.get("m") or []
        if not moves or node.get("x"):
            return
        position.push(position.parse_move(moves[0]))
        for reply, child in node.get("r", []):
            position.push(position.parse_move(reply))
            if child.get("d", 0) > 0:
                key = position_key(position.fen())
                found.add((entry["variant"], key, entry["goal"], int(child["d"])))
                walk(child)
            position.pop()
        position.pop()

    walk(tree)
    return found


def consecutive_duplicates(entries: list[dict[str, Any]]) -> set[str]:
    """The keys of the entries whose position is one another entry's solution reaches (the
    same line a move or more on, or its mirror image), the longer puzzle kept. A classical
    problem is never dropped for a mined one."""
    from puzzles.mining import position_key

    by_position = {
        (e["variant"], position_key(e["fen"]), e["goal"], e["moves_to_win"]): e for e in entries
    }
    dropped: set[str] = set()
    for entry in sorted(entries, key=lambda e: -e["moves_to_win"]):
        if entry["key"] in dropped:
            continue
        for place in _continuations(entry):
            later = by_position.get(place)
            if later is None or later["key"] == entry["key"] or later["key"] in dropped:
                continue
            if later.get("source") == "classic" and entry.get("source") != "classic":
                continue
            dropped.add(later["key"])
    return dropped


def _without(fen: str, point: str) -> str:
    """``fen`` with the piece on ``point`` (ICCS, ``e3``) taken off the board."""
    fields = fen.split(" ")
    ranks = fields[0].split("/")
    row = len(ranks) - 1 - int(point[1:])
    cells: list[str] = []
    text = ranks[row]
    i = 0
    while i < len(text):
        if text[i].isdigit():
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            cells.extend([""] * int(text[i:j]))
            i = j
        else:
            size = 2 if text[i] == "+" else 1
            cells.append(text[i : i + size])
            i += size
    cells[ord(point[0]) - ord("a")] = ""
    out, run = "", 0
    for cell in cells:
        if not cell:
            run += 1
            continue
        out += (str(run) if run else "") + cell
        run = 0
    ranks[row] = out + (str(run) if run else "")
    return " ".join(["/".join(ranks), *fields[1:]])


def defection_needed(entry: dict[str, Any], *, nodes: int = DEFECTION_NODES) -> bool | None:
    """Does the win need a piece the attacker won by defection? For each defection of the
    attacker in the main line, the defected piece is taken off the board at that moment and
    every defender reply is searched: ``True`` when one of them escapes the win in the moves
    left (or the mating move no longer mates), ``False`` when the win holds after every reply
    without the piece at every defection (the tag is decoration), ``None`` when a search ran
    out of budget and nothing escaped."""
    line = entry.get("main_line") or proving.main_line(entry["proof"])
    if defender_defection_blocks(variant=entry["variant"], fen=entry["fen"], main_line=line):
        return True  # the defender's own defection walls its general in
    position = Position.from_fen(entry["variant"], entry["fen"])
    unknown = False
    for ply, text in enumerate(line):
        move = position.parse_move(text)
        _changes, kind = position.effects(position.encode(move))
        position.push(move)
        if ply % 2 or kind != "defection":
            continue
        left = entry["moves_to_win"] - (ply // 2 + 1)
        try:
            bare = Position.from_fen(entry["variant"], _without(position.fen(), text[:2]))
        except EngineError:
            return True  # without it the position is not even legal: it holds the position up
        if left == 0:
            if bare.status() not in ("checkmate", "dead_general"):
                return True  # the mating move no longer mates
            continue
        for reply in list(bare.legal_moves):
            bare.push(reply)
            try:
                if bare.outcome() is not None:
                    return True  # the game ends on the defender's move: no win for the attacker
                found = proving.prover.find_win(
                    bare,
                    goal=entry["goal"],
                    max_moves=left,
                    budget=proving.prover.Budget(nodes=nodes),
                    mode=entry.get("mode", proving.FULL),
                )
                if found.status == "no_win":
                    return True
                unknown = unknown or found.status != "win"
            finally:
                bare.pop()
        if not list(bare.legal_moves):
            return True  # the defender has no move without the piece: another ending
    return None if unknown else False


@dataclass(frozen=True)
class Tidied:
    random_games: list[str]
    duplicates: list[str]
    decorative_defections: list[str]
    undecided_defections: list[str]
    rated: int
    total: int


def tidy_bank(
    entries: list[dict[str, Any]], *, keep: frozenset[str] = frozenset()
) -> tuple[list[dict[str, Any]], Tidied]:
    """The bank without the random-move game puzzles and the consecutive duplicates (a puzzle
    may be both), with the ``defection`` theme only where the win needs the defected piece, and
    every mined entry rated; with what was done. The classical problems stay, and so do the
    entries whose keys are in ``keep`` (the kill patterns' examples, until they are chosen
    again)."""
    random_games = [e["key"] for e in entries if random_game_puzzle(e) and e["key"] not in keep]
    duplicates = consecutive_duplicates(entries) - keep  # counted over the whole bank
    gone = set(random_games) | duplicates
    kept = [e for e in entries if e["key"] not in gone]
    decorative, undecided = [], []
    for entry in kept:
        if "defection" not in entry["themes"]:
            continue
        needed = defection_needed(entry)
        if needed is False:
            entry["themes"] = [t for t in entry["themes"] if t != "defection"]
            decorative.append(entry["key"])
        elif needed is None:
            undecided.append(entry["key"])
    rated = rate_entries(kept)
    return kept, Tidied(random_games, sorted(duplicates), decorative, undecided, rated, len(kept))
