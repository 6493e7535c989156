"""Error messages in the reader's language: one function from a code and its params to a
sentence in Simplified Chinese or English.

The engine's errors carry a stable ``code`` and ``params`` (``engine.errors.MESSAGES`` lists
the codes); the site's services add codes of their own (``APP_EN``). ``render`` says any of
them in the active language (or the one asked for), with piece names, sides, variants, goals
and endings in words, never as FEN letters. The API's exception handler, the puzzle editor, the
authoring rejection reasons and the analysis board all go through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from django.utils import translation

from engine.errors import MESSAGES as ENGINE_EN
from engine.errors import english
from words.endings import ending_name

Params = Mapping[str, object]

# -- words ---------------------------------------------------------------------------------

PIECE_ZH: Final = {
    "general": ("帅", "将", "将帅"),
    "advisor": ("仕", "士", "士"),
    "elephant": ("相", "象", "象"),
    "horse": ("马", "马", "马"),
    "chariot": ("车", "车", "车"),
    "cannon": ("炮", "炮", "炮"),
    "soldier": ("兵", "卒", "兵卒"),
    "fighter": ("战机", "战机", "战机"),
    "missile": ("导弹", "导弹", "导弹"),
}
COLOUR_ZH: Final = {"red": "红方", "black": "黑方"}
VARIANT_ZH: Final = {"xiangqi": "中国象棋", "feidan": "飞弹象棋", "xinban": "新版象棋"}
VARIANT_EN: Final = {
    "xiangqi": "Xiangqi",
    "feidan": "Missile Xiangqi",
    "xinban": "New-version Xiangqi",
}
GOAL_ZH: Final = {"mate": "将死", "dead_general": "死将", "win": "取胜"}
GOAL_EN: Final = {"mate": "checkmate", "dead_general": "a dead general", "win": "a win"}
# -- the engine's codes in Chinese ----------------------------------------------------------

ENGINE_ZH: Final[Mapping[str, str]] = {
    "variant.unknown": "没有“{name}”这种棋（可选：{known}）",
    "variant.unknown_start": "{variant}没有名为“{setup}”的开局（可选：{known}）",
    "fen.not_string": "FEN 必须是文字",
    "fen.too_long": "超过 {limit} 个字符",
    "fen.empty": "是空的",
    "fen.too_many_fields": "字段太多（应为：棋盘 走子方 - - 半回合数 回合数）",
    "fen.bad_side": "走子方必须是 w（或 r）或 b，而不是“{found}”",
    "fen.bad_third_field": "第三个字段必须是“-”，而不是“{found}”",
    "fen.bad_fourth_field": "第四个字段必须是“-”，而不是“{found}”",
    "fen.bad_halfmove": "半回合数必须是整数，而不是“{found}”",
    "fen.bad_fullmove": "回合数必须是整数，而不是“{found}”",
    "fen.fullmove_zero": "回合数至少是 1",
    "fen.rank_count": "应有 10 条横线，用“/”隔开，实际有 {count} 条",
    "fen.rank_too_long": "超过 {width} 个点",
    "fen.rank_width": "有 {count} 个点，而{variant}的棋盘每条横线有 {width} 个点",
    "fen.zero_run": "空点数不能以 0 开头",
    "fen.plus_at_end": "“+”后面必须跟一个棋子字母",
    "fen.plus_not_piece": "“+”后面必须跟一个棋子字母，而不是“{letter}”",
    "fen.turncoat_not_in_variant": "{variant}里没有“+”标记的{piece}（反间棋子）",
    "fen.unknown_letter": "“{letter}”不是{variant}的棋子",
    "fen.general_outside_palace": "{colour}在 {square} 的{piece_of_colour}不在九宫里",
    "fen.advisor_point": "{colour}的{piece_of_colour}在 {square}，仕（士）永远走不到这个点",
    "fen.elephant_point": "{colour}的{piece_of_colour}在 {square}，相（象）永远走不到这个点",
    "fen.soldier_behind": "{colour}的{piece_of_colour}在 {square}，退到了兵（卒）线后面",
    "fen.no_general": "{colour}没有{piece_of_colour}",
    "fen.two_generals": "{colour}有 {count} 个{piece_of_colour}",
    "fen.too_many_pieces": "{colour}有 {count} 个{piece_of_colour}，对局中一方最多只能有 {limit} 个",
    "fen.too_many_turncoats": (
        "{colour}有 {count} 个反间{piece_of_colour}，一方开局最多 {limit} 个，对局中不会增加"
    ),
    "fen.too_many_on_board": "棋盘上有 {count} 个{piece}，一盘棋最多只有 {limit} 个",
    "fen.other_side_in_check": "不走棋的一方（{colour}）正被将军，或将帅照面",
    "position.bad_square": "{variant}的棋盘上没有“{name}”这个点",
    "position.bad_side": "一方只能是 red（红方）或 black（黑方），不能是 {side!r}",
    "position.bad_piece": "{square} 上的 {text!r} 不是 FEN 里的棋子字母",
    "move.not_string": "着法必须是文字",
    "move.iccs_shape": "ICCS 着法形如 h2e2（两次：列 a–k，行 0–9）",
    "move.same_point": "着法必须离开原来的点",
    "move.off_board": "有一个点不在棋盘上",
    "move.no_piece": "{square} 上没有棋子",
    "move.not_your_piece": "{square} 上的棋子属于不走棋的一方",
    "move.cannot_reach": "{square} 上的{piece_of_colour}走不到 {target}",
    "move.general_onto_missile": "将帅永远不能走到导弹上",
    "move.dead_general": "导弹在九宫里将军，将帅无处可逃：这盘棋已经结束",
    "move.leaves_check": "走了以后己方的将帅会被将军或与对方将帅照面",
    "move.not_legal": "这里不能这样走",
    "move.ambiguous": "可能是：{candidates}",
    "notation.empty": "着法是空的",
    "notation.too_long": "超过 {limit} 个字符",
    "notation.bad_number": "“{found}”不是路数也不是步数",
    "notation.bad_start": "着法要以棋子名或前/中/后开头，而不是“{found}”",
    "notation.name_missing": "前/中/后或序数后面要跟棋子名",
    "notation.file_missing": "棋子名后面要跟路数（或者前面加前/后）",
    "notation.ends_early": "着法没写完",
    "notation.unexpected": "第 {index} 个字“{found}”看不懂",
    "notation.piece_not_in_variant": "{variant}里没有{piece}",
    "notation.bad_ordinal": "一路上没有第 {order} 个棋子",
    "notation.file_off_board": "第 {file} 路不在 {width} 路的棋盘上",
    "notation.same_file": "“平”要走到另一路",
    "notation.bad_distance": "{piece}不能走 {count} 步",
    "notation.soldier_back": "兵（卒）永远不能后退",
    "notation.no_sideways": "{piece}不能“平”",
    "notation.bad_jump": "{piece}不能从第 {file} 路走到第 {target} 路",
    "notation.never_defects": "{piece}不会反间",
    "notation.no_defection": "{variant}里没有反间",
    "notation.no_piece_on_file": "第 {file} 路上没有{colour}的{piece_of_colour}",
    "notation.no_piece_fits": "没有{colour}的{piece_of_colour}符合“{order}”",
    "notation.no_piece_fits_file": "第 {file} 路上没有{colour}的{piece_of_colour}符合“{order}”",
    "notation.no_match": "{squares} 上的{piece}没有符合“{tail}”的合法着法",
    "notation.no_defection_made": "{move} 没有让棋子反间，但着法末尾写了{name}",
    "notation.wrong_defection": "{move} 让{defected}反间，而不是{piece}",
    "setup.invalid": "布局不合规则",
    "setup.arrangement_index": "排列编号必须在 0 到 {limit} 之间，而不是 {value}",
    "setup.arrangement_letters": "排列必须是炮、战机、马、车各两个，而不是“{letters}”",
    "setup.trigram": "卦数必须在 1 到 8 之间（上卦 {upper}，下卦 {lower}）",
    "setup.number_range": "{label}必须在 1 到 {limit} 之间，而不是 {value}",
    "setup.bad_colour": "一方必须是 red 或 black，而不是“{found}”",
    "setup.bad_method": "布局方法必须是 {known} 之一，而不是“{found}”",
    "setup.no_reveal": "抽了 {attempts} 次，都配不成{colour}这一半的合法布局",
    "setup.naive_time": "梅花易数布局需要带时区的时间（{moment}）",
    "perft.depth": "深度至少是 {limit}",
    "cli.depth": "深度必须在 0 到 8 之间，而不是 {value}",
    "play.moves_not_list": "着法必须是 ICCS 着法的列表，而不是一个字符串",
    "play.bad_level": "级别必须是 1 到 8 的整数，而不是 {value}",
    "play.not_positive": "{name} 必须是正整数，而不是 {value}",
    "play.game_over": "棋局已经结束：{termination}",
    "play.bad_seed": "种子必须是整数，而不是 {value}",
    "play.all_excluded": "排除 {count} 步之后，已经没有合法着法可以搜索",
    "solver.not_a_position": "需要一个局面，而不是 {type}",
    "solver.unknown_goal": "没有“{goal}”这种目标（可选：{known}）",
    "solver.unknown_mode": "没有“{mode}”这种证明方式（可选：{known}）",
    "solver.unknown_algorithm": "没有“{algorithm}”这种搜索算法（可选：{known}）",
    "solver.bad_memory": "内存上限必须是不小于 1 的整数（单位：兆字节），而不是 {value}",
    "solver.length_not_int": "步数必须是整数，而不是 {value}",
    "solver.length_range": "步数必须在 1 到 {limit} 之间，而不是 {value}",
    "solver.no_dead_general": "{variant}没有死将规则",
    "solver.game_over": "这个局面棋局已经结束（{status}）",
    "solver.no_solution": "证明结果为“{status}”，没有可以对照的解法",
    "solver.too_many_moves": "攻方的着法比题目允许的多",
    "solver.bad_budget": "--{name} 必须是正数，而不是 {value}",
    "solver.malformed_tree": "证明树格式错误（{part}）",
    "solver.proof_not_object": "证明必须是 JSON 对象",
    "solver.proof_version": "不认识的证明格式版本 {version}",
    "solver.proof_status": "不认识的证明结果“{status}”",
    "solver.malformed_proof": "证明格式错误",
    "solver.proof_not_json": "证明必须是 JSON",
    "proof.no_win": "{moves_text}内没有强制{goal}",
    "proof.no_win_no_check": "{moves_text}内没有强制{goal}（没有将军的着法）",
    "proof.budget_exhausted": "计算量用完了，证明没有完成",
    "proof.shorter": "有更短的强制{goal}：{moves_text}（首着 {keys}），比题目说的 {stated} 步短",
    "proof.cooked": "不止一个首着：{keys}",
    "proof.tree_cut": "解法树在计算量用完处被截断",
    "judge.checks_only": "这道题每一步都必须将军",
    "judge.no_time": "在限定的计算量内没能判断这步棋",
    "judge.escapes": "{move} 可以解围",
    "judge.ends_game": "这步棋以{status}结束了棋局",
    "judge.too_slow": "这步棋不能在规定步数内取胜",
    "judge.attacker_to_move": "轮到攻方走棋",
    "judge.no_defence_in_time": "在限定的计算量内没能选出应着",
    "judge.keeps_win": "这步棋保持着胜势",
    "judge.solved": "解开了（{status}）",
    "judge.game_ended": "棋局以{status}结束",
    "patterns.not_mate": "这串着法没有以将死或死将结束（结局：{status}）：{fen}",
    "patterns.attacker_mated": "这串着法的结果是进攻方被将死，而不是防守方：{fen}",
}

# -- the site's own codes --------------------------------------------------------------------

APP_EN: Final[Mapping[str, str]] = {
    "position.not_legal": "This position is not legal: {reason}",
    "position.rank": "rank {rank}: {reason}",
    "position.fen_and_setup": "Give either a FEN or a named start, not both.",
    "position.too_many_moves": "Too many moves: {count} (at most {limit}).",
    "position.after_end": "Move {index} ({input}) comes after the end of the game ({termination}).",
    "position.move_rejected": "Move {index} ({input}): {reason}",
    "puzzle.unknown_variant": "Unknown variant “{variant}”.",
    "puzzle.unknown_goal": "Unknown goal “{goal}”.",
    "puzzle.unknown_mode": "Unknown mode “{mode}”: a puzzle is proved over every move (full) or over checks only (checks_only).",
    "puzzle.dead_general_needs_feidan": (
        "A dead-general puzzle needs Missile Xiangqi: only missiles can leave a general dead."
    ),
    "puzzle.moves_range": "The number of moves must be between 1 and {limit}.",
    "puzzle.game_over": "The game is already over in this position ({termination}).",
    "puzzle.published": "A published puzzle cannot be changed.",
    "puzzle.verifying": "The puzzle is being verified; wait for the result before changing it.",
    "solving.too_many_moves": (
        "Too many moves: a puzzle in {moves_text} has at most {limit} moves of both sides."
    ),
    "solving.not_in_line": "Move {index} ({input}) is not a legal move in this line.",
    "solving.not_proved": "This puzzle has not been proved yet.",
    "solving.ends_with_reply": "The line must end with your move.",
    "solving.hint_wait": "A hint is for your move: wait for the reply.",
    "solving.no_winning_move": "There is no winning move from here.",
    "solving.not_open": "This puzzle cannot be tried yet.",
    "solving.already_submitted": "This attempt was already submitted with other moves.",
    "rejection.cooked": "Cooked: more than one first move forces {goal} in {moves_text}: {keys}.",
    "rejection.shorter": "There is a shorter win: {goal} in {moves_text}, starting {keys}.",
    "rejection.no_win": "No forced {goal} in {moves_text}.",
    "rejection.no_win_escape": (
        "No forced {goal} in {moves_text}: against the try {attempt}, the defence {reply} escapes."
    ),
    "rejection.budget_exhausted": (
        "Too hard to prove within the budget: the prover could not finish ({nodes} positions, "
        "{seconds} s). Try a shorter or simpler puzzle."
    ),
    "rejection.budget_timeout": (
        "Too hard to prove within the budget: the verification ran out of time ({seconds} s)."
    ),
    "rejection.invalid": "This position cannot be a puzzle: {reason}",
    "rejection.retired": "This puzzle is no longer offered.",
    "rejection.other": "Not published.",
    "rejection.checks_only": "Only attacking moves that give check were counted: a mate by checks alone.",
    "solving.open_failed": "The attempt could not be opened: try again.",
    "solving.attempt_over": "This attempt is over: open a new one to play again.",
    "tactics.also_good": "Also good, but not the best: find the strongest move",
    "tactics.not_winning": "this move does not win material",
    "tactics.off_line": "the moves left the puzzle's line",
    "solving.out_of_step": "The move is out of step: the line has {ply} moves.",
    "solving.no_hint": "No hint can be given from here.",
    "run.no_puzzles": "There are no puzzles for this run in this variant yet.",
    "run.start_failed": "The run could not be started: try again.",
    "run.over": "This run is over: start a new one to play again.",
    "run.out_of_step": "This move is out of step: the run is at puzzle {index}, move {ply}.",
    "run.time_up": "Time is up: the move came after the clock ran out.",
    "run.no_skip": "There is no skip left in this run.",
    "run.all_seen": (
        "You have seen the solution of every puzzle this run could offer in this variant."
    ),
    "run.cookies_needed": (
        "A run is kept in your browser's session, and this request came without the site's "
        "cookies: allow cookies for this site, then load the page again."
    ),
    "puzzle.author_verifying": (
        "Another of your puzzles (#{id}) is being verified. One puzzle is proved at a time per "
        "author: send this one when that result is in."
    ),
    "puzzle.queue_full": (
        "The prover has {count} puzzles waiting, as many as it takes. Your draft is kept; send "
        "it again in a few minutes."
    ),
    "puzzle.address_queue_full": (
        "{count} puzzles sent from your address are waiting for the prover already, as many as "
        "one address may queue. Your draft is kept; send it again when one of them is decided."
    ),
    "game.unknown_mode": "There is no game mode “{mode}” (known: {known}).",
    "game.bad_level": "The level is {low} to {high}.",
    "game.bad_side": "The side is red, black or random, not “{side}”.",
    "game.clock_range": "The clock is 0 to {limit} minutes.",
    "game.increment_range": "The increment is 0 to {limit} seconds.",
    "game.unknown_secret_setup": "There is no secret setup “{method}” (known: {known}).",
    "game.game_over": "This game is over.",
    "game.setting_up": "The pieces are still being set up.",
    "game.not_setting_up": "This game is not being set up.",
    "game.computer_to_move": "It is the computer's turn: wait for its move.",
    "game.wrong_side": "The piece on {point} is your opponent's: you play {colour}.",
    "game.invalid_move": (
        "“{move}” is not a move: write it in ICCS (h2e2) or Chinese notation (炮二平五)."
    ),
    "game.out_of_date": "The game has moved on (it is at ply {ply}); reload it.",
    "game.takeback_level": "Takebacks are allowed at levels 1 to 3 only.",
    "game.takeback_nothing": "There is no move of yours to take back.",
    "game.draw_already_offered": "You have already offered a draw at this move.",
    "game.no_draw_offer": "The computer has not offered a draw that you could answer now.",
    "game.claim_not_allowed": (
        "You may not declare an attack-power draw now: both sides' attack power must be below "
        "10 and yours no lower than your opponent's."
    ),
    "game.claim_no_attack_power": "Only New-version Xiangqi has attack-power draws.",
    "game.not_your_turn": "It is not your turn.",
    "game.illegal_setup": "The setup breaks the rules:{faults}",
    "game.move_explained": "{explanation}",
    "game.share_not_finished": (
        "Only a finished game can be shared: finish or resign it first, so that its link "
        "gives nothing away while it is played."
    ),
    "game.computer_busy": (
        "The computer is still answering your moves in {count} other games: wait for its "
        "moves there, then play this one."
    ),
    "game.computer_busy_address": (
        "The computer is answering {count} moves for players at your address: wait a moment "
        "and play again."
    ),
    "analysis.busy": (
        "The engine is still thinking about the position you asked about before: wait for "
        "its answer, then ask again."
    ),
    "analysis.busy_address": (
        "The engine is thinking about {count} positions for players at your address: wait a "
        "moment and ask again."
    ),
    "analysis.lost": "The engine's answer was lost on the way: ask it again.",
    "analysis.superseded": (
        "You asked the engine about another position (in another tab or window, perhaps): it "
        "thinks about that one now."
    ),
    "analysis.too_deep": (
        "The engine searches at most {cap} positions for one question; {nodes} is more than that."
    ),
    "analysis.judge_failed": ("The engine ({engine}) stopped answering: ask again in a moment."),
    "analysis.game_over": (
        "The game is over in this position ({termination}): there is no move to find."
    ),
    "game_analysis.not_finished": (
        "Only a finished game can be analysed: finish it, or resign, and ask again."
    ),
    "game_analysis.busy": (
        "The computer is still analysing another of your games: wait until it is done, then "
        "ask for this one."
    ),
    "game_analysis.judge_failed": (
        "The engine judging this game ({engine}) stopped answering: ask for the analysis "
        "again in a while."
    ),
    "game_analysis.busy_address": (
        "The computer has {count} games waiting for their analysis from players at your "
        "address: wait until one is done, then ask again."
    ),
    "game.too_many_games": (
        "You have {count} games in progress: finish or resign one before you start another."
    ),
    "game.too_many_games_address": (
        "{count} games are in progress from your address: finish or resign one before you "
        "start another."
    ),
    "lesson.unknown": "There is no lesson “{lesson}”.",
    "lesson.unknown_step": "Lesson “{lesson}” has no step “{step}”.",
    "lesson.refused": "{explanation}",
    "lesson.not_moves": "This step is not answered with moves.",
    "lesson.moment_naive": "The moment must carry a time zone.",
    "lesson.moment_expired": "The board of this question has expired: open the step again.",
    "lesson.unknown_fields": (
        "Unknown field(s): {names}. Progress is decided by the server from what you played; it "
        "cannot be sent."
    ),
    "lesson.not_your_progress": "Progress can only be read for yourself.",
    # a request's fields, as refused by the API's input checks (core/field_errors.py)
    "input.required": "The field “{field}” is missing.",
    "input.null": "The field “{field}” may not be null.",
    "input.empty": "The field “{field}” may not be empty.",
    "input.not_string": "The field “{field}” must be a string.",
    "input.not_integer": "The field “{field}” must be a whole number.",
    "input.not_number": "The field “{field}” must be a number.",
    "input.not_boolean": "The field “{field}” must be true or false.",
    "input.not_datetime": (
        "The field “{field}” must be a date and time with its time zone, in ISO 8601 "
        "(2026-01-31T08:00:00+08:00)."
    ),
    "input.not_date": "The field “{field}” must be a date in ISO 8601 (2026-01-31).",
    "input.not_uuid": "The field “{field}” must be a UUID.",
    "input.not_json": "The field “{field}” must be valid JSON.",
    "input.not_list": "The field “{field}” must be a list.",
    "input.not_object": "The field “{field}” must be an object.",
    "input.not_a_choice": "The field “{field}” cannot be “{input}” (known: {known}).",
    "input.not_choices": "The field “{field}” has unknown values: {input} (known: {known}).",
    "input.too_long": "The field “{field}” has more than {limit} characters.",
    "input.too_short": "The field “{field}” has fewer than {limit} characters.",
    "input.too_many": "The field “{field}” has more than {limit} items.",
    "input.too_few": "The field “{field}” has fewer than {limit} items.",
    "input.too_large": "The field “{field}” must be at most {limit}.",
    "input.too_small": "The field “{field}” must be at least {limit}.",
    "input.invalid": "The field “{field}” is not valid: {reason}.",
    "input.body_not_object": "The request must be a JSON object, not a {type}.",
    "input.invalid_request": "The request is not valid: {reason}.",
    "input.nul_character": "The request holds a NUL character, which no address or value may hold.",
}
APP_ZH: Final[Mapping[str, str]] = {
    "position.not_legal": "局面不合法：{reason}",
    "position.rank": "第 {rank} 横线：{reason}",
    "position.fen_and_setup": "FEN 和开局名称只能给一个。",
    "position.too_many_moves": "着法太多：{count} 步（最多 {limit} 步）。",
    "position.after_end": "第 {index} 步（{input}）在棋局结束（{termination}）之后。",
    "position.move_rejected": "第 {index} 步（{input}）：{reason}",
    "puzzle.unknown_variant": "没有“{variant}”这种棋。",
    "puzzle.unknown_goal": "没有“{goal}”这种目标。",
    "puzzle.unknown_mode": "没有“{mode}”这种证明方式：谜题可以在所有着法中证明（full），或只在将军的着法中证明（checks_only）。",
    "puzzle.dead_general_needs_feidan": "死将题只能是飞弹象棋：只有导弹才能造成死将。",
    "puzzle.moves_range": "步数必须在 1 到 {limit} 之间。",
    "puzzle.game_over": "这个局面棋局已经结束（{termination}）。",
    "puzzle.published": "已发布的题目不能再修改。",
    "puzzle.verifying": "题目正在验证，请等结果出来再修改。",
    "solving.too_many_moves": "着法太多：{moves_text}的题，双方合计最多 {limit} 步。",
    "solving.not_in_line": "第 {index} 步（{input}）在这条变化里不合法。",
    "solving.not_proved": "这道题还没有经过证明。",
    "solving.ends_with_reply": "着法要以你走的一步结束。",
    "solving.hint_wait": "提示只给你走的一步：请等对方应着。",
    "solving.no_winning_move": "从这里已经没有取胜的着法了。",
    "solving.not_open": "这道题还不能做。",
    "solving.already_submitted": "这次尝试已经用别的着法提交过了。",
    "rejection.cooked": "有多解：不止一个首着能在{moves_text}内{goal}：{keys}。",
    "rejection.shorter": "有更短的解法：{moves_text}即可{goal}，首着 {keys}。",
    "rejection.no_win": "{moves_text}内不能强制{goal}。",
    "rejection.no_win_escape": "{moves_text}内不能强制{goal}：对试着 {attempt}，应着 {reply} 可以解围。",
    "rejection.budget_exhausted": (
        "太难了，在限定的计算量内证明不完（{nodes} 个局面，{seconds} 秒）。请换一道更短或更简单的题。"
    ),
    "rejection.budget_timeout": "太难了，验证超时（{seconds} 秒）。请换一道更短或更简单的题。",
    "rejection.invalid": "这个局面不能出题：{reason}",
    "rejection.retired": "这道题已不再提供。",
    "rejection.other": "未发布。",
    "rejection.checks_only": "攻方只计将军的着法（连将杀）。",
    "solving.open_failed": "没能开始这次尝试，请再试一次。",
    "solving.attempt_over": "这次尝试已经结束：要再做一次，请重新开始。",
    "tactics.also_good": "也不错，但不是最好的：找出最强的一着",
    "tactics.not_winning": "这步棋赢不到子力",
    "tactics.off_line": "着法离开了题目的变化",
    "solving.out_of_step": "这步棋跟不上棋盘：这条变化已经走了 {ply} 步。",
    "solving.no_hint": "从这里给不出提示。",
    "run.no_puzzles": "这个变体还没有可用于这种练习的题目。",
    "run.start_failed": "没能开始这一轮，请再试一次。",
    "run.over": "这一轮已经结束：要再玩，请开始新的一轮。",
    "run.out_of_step": "这步棋跟不上：这一轮在第 {index} 题、第 {ply} 步。",
    "run.time_up": "时间到了：这步棋是在计时结束之后才到的。",
    "run.no_skip": "这一轮已经没有跳过的机会了。",
    "run.all_seen": "这个变体里这种练习能出的题，你都已经看过答案了。",
    "run.cookies_needed": (
        "这一轮保存在浏览器的会话里，而这个请求没有带本站的 Cookie：请允许本站使用 Cookie，"
        "然后重新打开页面。"
    ),
    "puzzle.author_verifying": (
        "你的另一道题（#{id}）正在验证。每位作者同一时间只验证一道题：等那道题有了结果再提交这一道。"
    ),
    "puzzle.queue_full": "验证队列已满（{count} 道题在等待）。你的草稿已保存，请过几分钟再提交。",
    "puzzle.address_queue_full": (
        "从你的网络地址提交的 {count} 道题已经在等待验证，一个地址最多只能排这么多。"
        "你的草稿已保存，等其中一道有了结果再提交。"
    ),
    "game.unknown_mode": "没有“{mode}”这种对局方式（可选：{known}）。",
    "game.bad_level": "等级是 {low} 到 {high} 级。",
    "game.bad_side": "执子方只能是红方（red）、黑方（black）或随机（random），而不是“{side}”。",
    "game.clock_range": "每方用时是 0 到 {limit} 分钟。",
    "game.increment_range": "每步加秒是 0 到 {limit} 秒。",
    "game.unknown_secret_setup": "没有“{method}”这种暗布局（可选：{known}）。",
    "game.game_over": "这盘棋已经结束。",
    "game.setting_up": "还在布局：先摆好棋子。",
    "game.not_setting_up": "这盘棋不在布局阶段。",
    "game.computer_to_move": "现在轮到电脑走棋，请等它走完。",
    "game.wrong_side": "{point}上是对方的棋子：你执{colour}。",
    "game.invalid_move": "“{move}”不是一步棋：请用 ICCS（如 h2e2）或中文记谱（如 炮二平五）。",
    "game.out_of_date": "棋盘已经变了（现在是第 {ply} 步），请刷新。",
    "game.takeback_level": "只有 1–3 级可以悔棋。",
    "game.takeback_nothing": "没有可以悔的棋。",
    "game.draw_already_offered": "这一步已经提过和棋了。",
    "game.no_draw_offer": "电脑现在没有提和，无从接受或拒绝。",
    "game.claim_not_allowed": (
        "现在不能按进攻能力宣布和棋：双方进攻能力都要低于 10，且你的不能低于对方。"
    ),
    "game.claim_no_attack_power": "只有新版象棋有进攻能力和棋。",
    "game.not_your_turn": "现在不是你走。",
    "game.illegal_setup": "布局不符合规则：{faults}",
    "game.move_explained": "{explanation}",
    "game.share_not_finished": "只有下完的棋才能分享：先下完或认输，免得对局还在进行时链接泄露棋局。",
    "game.computer_busy": "电脑还在其他 {count} 盘棋里思考你的着法：等它在那边走完，再走这一步。",
    "game.computer_busy_address": "电脑正在为你这个网络地址的棋手思考 {count} 步棋：请稍等片刻再走。",
    "analysis.busy": "引擎还在思考你上一次问的局面：等它给出答案，再问新的局面。",
    "analysis.busy_address": "引擎正在为你这个网络地址的棋手思考 {count} 个局面：请稍等片刻再问。",
    "analysis.lost": "引擎的答案在途中丢失了：请再问一次。",
    "analysis.superseded": "你让引擎去想另一个局面了（也许是在另一个标签页或窗口里）：它现在改想那个局面。",
    "analysis.too_deep": "引擎一次最多搜索 {cap} 个局面；{nodes} 超过了这个上限。",
    "analysis.judge_failed": "引擎（{engine}）没有回应：请过一会儿再问。",
    "analysis.game_over": "这个局面棋局已经结束（{termination}）：没有着法可找。",
    "game_analysis.not_finished": "只有下完的棋才能分析：先下完或认输，再来请电脑分析。",
    "game_analysis.busy": "电脑还在分析你的另一盘棋：等它分析完，再请它分析这一盘。",
    "game_analysis.judge_failed": "为这盘棋评判的引擎（{engine}）没有回应：请过一会儿再请求分析。",
    "game_analysis.busy_address": "你这个网络地址的棋手有 {count} 盘棋在等电脑分析：等其中一盘分析完，再来请它分析。",
    "game.too_many_games": "你有 {count} 盘棋还没下完：先下完或认输一盘，再开新局。",
    "game.too_many_games_address": "你这个网络地址有 {count} 盘棋还没下完：先下完或认输一盘，再开新局。",
    "lesson.unknown": "没有“{lesson}”这一课。",
    "lesson.unknown_step": "“{lesson}”这一课没有“{step}”这一步。",
    "lesson.refused": "{explanation}",
    "lesson.not_moves": "这一步不是用走棋来回答的。",
    "lesson.moment_naive": "时间必须带时区。",
    "lesson.moment_expired": "这道题的棋盘已经过期：请重新打开这一步。",
    "lesson.unknown_fields": "不认识的字段：{names}。进度由服务器根据你走的棋决定，不能发送。",
    "lesson.not_your_progress": "只能查看你自己的进度。",
    "input.required": "缺少字段“{field}”。",
    "input.null": "字段“{field}”不能是 null。",
    "input.empty": "字段“{field}”不能是空的。",
    "input.not_string": "字段“{field}”必须是字符串。",
    "input.not_integer": "字段“{field}”必须是整数。",
    "input.not_number": "字段“{field}”必须是数字。",
    "input.not_boolean": "字段“{field}”必须是 true 或 false。",
    "input.not_datetime": (
        "字段“{field}”必须是带时区的日期时间，按 ISO 8601 书写（如 2026-01-31T08:00:00+08:00）。"
    ),
    "input.not_date": "字段“{field}”必须是日期，按 ISO 8601 书写（如 2026-01-31）。",
    "input.not_uuid": "字段“{field}”必须是 UUID。",
    "input.not_json": "字段“{field}”必须是合法的 JSON。",
    "input.not_list": "字段“{field}”必须是列表。",
    "input.not_object": "字段“{field}”必须是对象。",
    "input.not_a_choice": "字段“{field}”不能是“{input}”（可选：{known}）。",
    "input.not_choices": "字段“{field}”含有未知的值：{input}（可选：{known}）。",
    "input.too_long": "字段“{field}”超过 {limit} 个字符。",
    "input.too_short": "字段“{field}”不到 {limit} 个字符。",
    "input.too_many": "字段“{field}”超过 {limit} 项。",
    "input.too_few": "字段“{field}”不到 {limit} 项。",
    "input.too_large": "字段“{field}”最大是 {limit}。",
    "input.too_small": "字段“{field}”最小是 {limit}。",
    "input.invalid": "字段“{field}”的值无效：{reason}。",
    "input.body_not_object": "请求必须是 JSON 对象。",
    "input.invalid_request": "请求无效：{reason}。",
    "input.nul_character": "请求中含有 NUL 字符，地址和取值都不能含有它。",
}

# Params that hold a text in both languages ({"zh": ..., "en": ...}): an explanation from the
# lessons, the faults of a secret setup. They are said in the reader's language.
TEXT_PARAMS: Final = frozenset({"explanation", "faults"})

ALL_CODES: Final = frozenset(ENGINE_EN) | frozenset(APP_EN)


def language_of(language: str | None = None) -> str:
    """``zh`` for any Chinese language code (the default), ``en`` for English."""
    code = (language or translation.get_language() or "zh-hans").lower()
    return "en" if code.startswith("en") else "zh"


def reads_chinese(language: str | None = None) -> bool:
    """Whether the reader reads Chinese: the given language, or the request's."""
    return language_of(language) == "zh"


def piece_name(piece: str, colour: str | None, language: str) -> str:
    """A piece's name: 仕 (Red), 士 (Black), 士 (either side) / advisor."""
    if language == "en":
        return piece
    names = PIECE_ZH.get(piece)
    if names is None:
        return piece
    if colour == "red":
        return names[0]
    if colour == "black":
        return names[1]
    return names[2]


def moves_text(n: object, language: str) -> str:
    """ "1 move", "3 moves" / "1 步", "3 步"."""
    if language == "en":
        return f"{n} move" if n == 1 else f"{n} moves"
    return f"{n} 步"


def _values(params: Params, language: str) -> dict[str, object]:
    values: dict[str, object] = dict(params)
    for key, value in params.items():
        if isinstance(value, Mapping) and "zh" in value and "en" in value:
            values[key] = value[language]
    colour = params.get("colour")
    piece = params.get("piece")
    colour_text = colour if isinstance(colour, str) else None
    if isinstance(piece, str):
        values["piece_of_colour"] = piece_name(piece, colour_text, language)
        if language == "zh":
            values["piece"] = piece_name(piece, None, language)
    for key in ("defected",):
        value = params.get(key)
        if isinstance(value, str) and language == "zh":
            values[key] = piece_name(value, None, language)
    if colour_text is not None and language == "zh":
        values["colour"] = COLOUR_ZH.get(colour_text, colour_text)
    variant = params.get("variant")
    if isinstance(variant, str):
        table = VARIANT_ZH if language == "zh" else VARIANT_EN
        values["variant"] = table.get(variant, variant)
    known = params.get("known")
    if isinstance(known, str) and language == "zh":
        names = [name.strip() for name in known.split(",")]
        if names and all(name in VARIANT_ZH for name in names):
            values["known"] = "、".join(f"{VARIANT_ZH[name]} {name}" for name in names)
    goal = params.get("goal")
    if isinstance(goal, str):
        values["goal"] = (GOAL_ZH if language == "zh" else GOAL_EN).get(goal, goal)
    for key in ("termination", "status"):
        value = params.get(key)
        if isinstance(value, str):
            values[key] = ending_name(value).get(language)
    if "moves" in params:
        values["moves_text"] = moves_text(params["moves"], language)
    return values


# The piece an engine code is about when its params do not name one.
IMPLIED_PIECE: Final = {
    "fen.general_outside_palace": "general",
    "fen.advisor_point": "advisor",
    "fen.elephant_point": "elephant",
    "fen.soldier_behind": "soldier",
    "fen.no_general": "general",
    "fen.two_generals": "general",
}


def _engine_text(code: str, params: Params, language: str, *, alone: bool = True) -> str:
    implied = IMPLIED_PIECE.get(code)
    if implied is not None and "piece" not in params:
        params = {**params, "piece": implied}
    if language == "en":
        values = _values(params, "en")
        values.pop("piece_of_colour", None)
        text = english(code, {k: v for k, v in values.items() if isinstance(v, str | int)})
        return text[:1].upper() + text[1:] if alone else text
    return ENGINE_ZH[code].format_map(_values(params, "zh"))


def render(code: str, params: Params | None = None, language: str | None = None) -> str:
    """The sentence for ``code`` with ``params``, in ``language`` (default: the active one).

    An engine code about a FEN is said as "This position is not legal: rank 3: …"; one about
    a move played in a list (params ``index`` and ``input``) as "Move 2 (h2e3): …".
    """
    lang = language_of(language)
    params = params or {}
    if code in APP_EN:
        table = APP_ZH if lang == "zh" else APP_EN
        return table[code].format_map(_values(params, lang))
    if code not in ENGINE_EN:
        raise KeyError(f"no message for the code {code!r}")
    wrapped = code.startswith("fen.") or (
        code.startswith(("move.", "notation.")) and "index" in params
    )
    reason = _engine_text(code, params, lang, alone=not wrapped)
    if code.startswith("fen."):
        if params.get("rank") is not None:
            reason = render("position.rank", {"rank": params["rank"], "reason": reason}, lang)
        reason = render("position.not_legal", {"reason": reason}, lang)
    elif wrapped:
        reason = render(
            "position.move_rejected",
            {"index": params["index"], "input": params.get("input", ""), "reason": reason},
            lang,
        )
    stop = "。" if lang == "zh" else "."
    if not reason.endswith(stop):
        reason += stop
    return reason
