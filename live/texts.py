"""What a live game says when it refuses something, in both languages, by code.

A refusal reaches the client as ``{"type": "error", "code", "message": {zh, en}}`` and changes
nothing (``live.consumers``); the codes are those of ``live.protocol`` (a message that is not
one the game reads) and of ``live.services`` (a message the game's state refuses).
"""

from __future__ import annotations

from typing import Final

from words.texts import Text

REFUSALS: Final[dict[str, Text]] = {
    # live.protocol: the message itself
    "not_text": Text("消息必须是文字（JSON）。", "A message must be text (JSON)."),
    "too_long": Text(
        "消息太长（最多{limit}字节）。", "The message is too long (at most {limit} bytes)."
    ),
    "not_json": Text("消息不是有效的JSON。", "The message is not valid JSON."),
    "not_object": Text("消息必须是一个JSON对象。", "A message must be a JSON object."),
    "unknown_type": Text(
        "不认识的消息类型“{type}”（可用：{known}）。",
        "Unknown message type “{type}” (known: {known}).",
    ),
    "unknown_field": Text(
        "“{type}”消息里不能有“{field}”字段。",
        "A “{type}” message has no field “{field}”.",
    ),
    "missing_field": Text(
        "“{type}”消息缺少“{field}”字段。",
        "A “{type}” message needs the field “{field}”.",
    ),
    "clock_not_accepted": Text(
        "时间只由服务器计算，客户端不能发送（“{field}”）。",
        "Clocks are kept by the server only; a client cannot send one (“{field}”).",
    ),
    "bad_ply": Text("“ply”必须是一个不小于0的整数。", "“ply” must be a whole number, 0 or more."),
    "bad_move": Text(
        "“{move}”不是ICCS着法（例如h2e2）。",
        "“{move}” is not a move in ICCS (such as h2e2).",
    ),
    "bad_draw_action": Text(
        "和棋、再来一局或悔棋只能offer（提出）、accept（接受）或decline（拒绝），而不是“{action}”。",
        "A draw, a rematch or a takeback can be offered (offer), accepted (accept) or declined "
        "(decline), not “{action}”.",
    ),
    "bad_placement": Text(
        "“placement”必须是一个对象：点（如e0）对应棋子字母（如K），最多{limit}个。",
        "“placement” must be an object of points (such as e0) to piece letters (such as K), "
        "at most {limit} of them.",
    ),
    "too_many_messages": Text(
        "消息发得太快了：请{seconds}秒后再试。",
        "Too many messages: try again in {seconds} s.",
    ),
    # live.services: the game refuses
    "not_found": Text("没有这盘棋。", "There is no such game."),
    "spectator": Text(
        "你在观战：只有对局双方可以走棋。", "You are watching: only the two players can move."
    ),
    "illegal_move": Text("{explanation}", "{explanation}"),  # words.explain says why
    "not_your_turn": Text("现在轮到对方走棋。", "It is not your turn: your opponent is to move."),
    "wrong_side": Text(
        "{point}上的棋子不是你的：你执{colour}。",
        "The piece on {point} is not yours: you play {colour}.",
    ),
    "out_of_date": Text(
        "这步棋已经过时：棋局已走了{ply}步（可能是重复发送，或另一个标签页已经走了）。",
        "That move is out of date: the game is at ply {ply} (sent twice, or played from another tab).",
    ),
    "not_started": Text("对手还没有接受挑战。", "Your friend has not accepted the challenge yet."),
    "game_over": Text("这盘棋已经结束。", "This game is over."),
    "own_challenge": Text(
        "这是你自己发出的挑战：把链接发给朋友，由朋友来接受。",
        "This is your own challenge: send the link to a friend, who accepts it.",
    ),
    "already_accepted": Text(
        "这个挑战已经有人接受了。", "Someone has already accepted this challenge."
    ),
    "too_late_to_abort": Text(
        "双方都已走棋，不能再中止：可以认输或提和。",
        "Both sides have moved: the game can no longer be aborted (resign or offer a draw).",
    ),
    "draw_already_offered": Text(
        "你已经提和了，请等待对方回答。", "You have offered a draw; wait for the answer."
    ),
    "no_draw_offer": Text("对方没有提和。", "Your opponent has not offered a draw."),
    "not_out_of_time": Text(
        "对方还有时间（{seconds}秒）：不能判超时。",
        "Your opponent still has time ({seconds} s): no win on time yet.",
    ),
    "nothing_to_take_back": Text(
        "你还没有走棋，没有可以悔的棋。", "You have not moved yet: there is nothing to take back."
    ),
    "takeback_already_offered": Text(
        "你已经请求悔棋，请等待对方回答。", "You have asked for a takeback; wait for the answer."
    ),
    "takeback_offer_pending": Text(
        "对方正在请求悔棋：先接受或拒绝对方的请求。",
        "Your opponent has asked for a takeback: accept or decline it first.",
    ),
    "takeback_declined": Text(
        "对方已经拒绝了你这一步的悔棋请求：走下一步之前不能再请求。",
        "Your opponent declined your takeback at this move: you cannot ask again before the "
        "next move.",
    ),
    "no_takeback_offer": Text("对方没有请求悔棋。", "Your opponent has not asked for a takeback."),
    "claim_no_attack_power": Text(
        "只有新版象棋可以按进攻能力判和。", "Only New-version Xiangqi has attack-power draws."
    ),
    "claim_not_allowed": Text(
        "现在不能按进攻能力判和：双方的进攻能力都必须低于{limit}，而且你的不能比对方低"
        "（红方{red}，黑方{black}）。",
        "No attack-power draw now: both sides' attack power must be below {limit}, and yours "
        "not below your opponent's (Red {red}, Black {black}).",
    ),
    "game_not_over": Text(
        "对局还没结束：结束后才能再来一局。", "The game is not over: a rematch comes after it."
    ),
    "no_rematch": Text(
        "这盘棋没有对手，不能再来一局。", "This game had no opponent: there is no rematch."
    ),
    "rematch_already_offered": Text(
        "你已经提出再来一局，请等待对方回答。", "You have offered a rematch; wait for the answer."
    ),
    "no_rematch_offer": Text("对方没有提出再来一局。", "Your opponent has not offered a rematch."),
    "setting_up": Text(
        "双方还在暗中布局：先摆好并交出你的一半（或等待对方的一半）。",
        "The secret setups are not both in yet: hand in your half (or wait for your opponent's).",
    ),
    "no_setup": Text("这盘棋没有暗布局。", "This game has no secret setup."),
    "setup_over": Text(
        "双方的布局已经揭开，棋局已经开始。",
        "Both setups have been revealed: the game is being played.",
    ),
    "setup_already_in": Text(
        "你已经交出了这一轮的布局，不能再改：请等待对方。",
        "You have handed in your setup for this round; it cannot be changed. Wait for your "
        "opponent's.",
    ),
    "illegal_setup": Text("这个布局不合规则：{faults}", "This setup breaks the rules:{faults}"),
    "rated_needs_account": Text(
        "有积分的对局需要账号：请先登录或注册，或者发起一盘不计积分的对局。",
        "A rated game needs an account: sign in or sign up first, or make a casual challenge.",
    ),
    "rated_needs_sign_in": Text(
        "这是一盘计积分的对局，需要账号：请先登录或注册，再打开这个链接接受挑战。",
        "This is a rated game and needs an account: sign in or sign up, then open this link "
        "again to accept.",
    ),
    "bad_options": Text("挑战的设置不对：{reason}", "The challenge's options are wrong: {reason}"),
    # live.services: the lobby's seeks
    "seek_gone": Text(
        "这个邀战已经不在了：已被别人接受、被取消，或发起人已离开大厅。",
        "This seek is gone: someone else took it, it was cancelled, or its player left the lobby.",
    ),
    "own_seek": Text(
        "这是你自己的邀战：等别人来接受，或者取消它。",
        "This is your own seek: wait for someone to accept it, or cancel it.",
    ),
    "not_your_seek": Text(
        "这不是你的邀战：只有发起人可以取消。",
        "This is not your seek: only its player can cancel it.",
    ),
    "rated_seek_needs_account": Text(
        "这是一盘计积分的对局，需要账号：请先登录或注册，再回大厅接受。",
        "This is a rated game and needs an account: sign in or sign up, then accept it in the "
        "lobby.",
    ),
    "too_many_seeks": Text(
        "你已经有{limit}个等待中的邀战：先取消一个，或者等别人接受。",
        "You already have {limit} open seeks: cancel one, or wait for someone to accept.",
    ),
    "seeks_too_fast": Text(
        "发起邀战太频繁了：请{seconds}秒后再试。",
        "Too many seeks made: try again in {seconds} s.",
    ),
    "no_player": Text(
        "这个连接没有会话：请重新打开大厅页面。",
        "This connection has no session: open the lobby page again.",
    ),
    # live.services: a player who left
    "opponent_present": Text(
        "对手还在（或已经回来了）：不能因离开而判胜或判和。",
        "Your opponent is here (or has come back): there is nothing to claim.",
    ),
    "opponent_not_gone_yet": Text(
        "对手刚离开：还要等{seconds}秒才能宣布胜利或和棋。",
        "Your opponent has only just left: you can claim in {seconds} s.",
    ),
    "claim_abort_instead": Text(
        "双方还没都走过棋：可以中止这盘棋，不能判胜负。",
        "Not both sides have moved yet: abort the game instead.",
    ),
    # live.services: blocks
    "cannot_play": Text("你不能和这位棋手对局。", "You cannot play a game with this player."),
    "block_needs_accounts": Text(
        "只有登录的账号可以屏蔽另一个账号（访客没有固定身份）。",
        "Only an account can block, and only another account (a visitor has no lasting identity).",
    ),
    "not_blocked": Text("你没有屏蔽这个账号。", "You have not blocked this account."),
    "bad_claim_action": Text(
        "能宣布的只有attack_power（新版象棋按进攻能力判和）、win（对手离开后宣布胜）或draw"
        "（对手离开后宣布和），而不是“{action}”。",
        "A claim is attack_power (xinban's draw by attack power), or, once your opponent has left, "
        "win or draw; not “{action}”.",
    ),
    # live.protocol: a lobby message's fields
    "bad_field": Text(
        "“{type}”消息的“{field}”字段不对：应当是{kind}。",
        "The field “{field}” of a “{type}” message is wrong: it must be {kind}.",
    ),
}


def refusal_text(code: str, params: dict[str, object] | None = None) -> Text:
    """The refusal ``code`` said with ``params`` (a value may be a ``Text``)."""
    return REFUSALS[code].format(**(params or {}))
