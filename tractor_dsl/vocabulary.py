"""The stable codes an engine answers with, each defined in words (English, Chinese).

Reason codes of a play (``lead``, ``follow``), reason codes of a declaration
(``declare``) and the consequences of a penalty (``penalty``'s
``consequence``, and the values of the fault records in a rule file). The
interpreter uses these codes, ``tractor export`` writes these definitions and
docs/protocol.md states them; a test keeps the three in step.
"""
from __future__ import annotations

# code -> (English, Chinese), in the interpreter's order of checks
PLAY_REASONS: dict[str, tuple[str, str]] = {
    "ok": ("the play is legal", "合规"),
    "wrong_card_count": ("the play has the wrong number of cards", "张数不对"),
    "cards_not_held": ("the play uses cards the player does not hold", "出了手中没有的牌"),
    "must_follow_suit": ("the player holds cards of the led suit and must play them", "手中有首家花色，必须跟出"),
    "must_play_tractor": ("the follow order requires a tractor the player holds, or (follow.fill = lowest_first, H37) "
                          "the fill a tractor led dictates",
                          "按跟牌顺序必须出手中的拖拉机，或（拆补齐，H37）须按规定补齐所跟的拖拉机"),
    "must_play_triple": ("the follow order requires a triple the player holds", "按跟牌顺序必须出手中的三条"),
    "must_play_pair": ("the follow order requires a pair the player holds", "按跟牌顺序必须出手中的对子"),
    "mixed_suits": ("a lead must be of one suit (trump counts as one suit)", "出牌必须是同一花色（主牌算一门）"),
    "throw_not_allowed": ("this ruleset does not allow throws, or not in this suit (throw.banned_in)",
                          "本规则不许甩牌，或不许在这门花色甩牌（throw.banned_in）"),
    "throw_beaten": ("another hand can beat part of the throw", "甩牌可被拦"),
    "empty_play": ("a play must contain at least one card", "出牌至少一张"),
}

DECLARATION_REASONS: dict[str, tuple[str, str]] = {
    "ok": ("the declaration is legal", "亮主合规"),
    "kitty_taken": ("the kitty has been taken up: nobody may declare or overcall any more",
                    "底牌已拿起，不能再亮主或反主"),
    "missing_first_hand_card": ("a first-hand declaration must also show declare.first_hand_card",
                                "首盘亮主须同时亮出规定的牌（declare.first_hand_card）"),
    "wrong_count": ("no cards, a single joker, or more copies than the decks hold", "张数不对（无牌、单张王或超过牌副数）"),
    "mixed_cards": ("the declared cards are not identical", "亮出的牌不相同"),
    "not_level_card": ("the declared card is not a level card of this hand", "亮出的不是本盘级牌"),
    "jokers_not_allowed": ("jokers may not declare in this ruleset (declare.joker_pairs false)",
                           "本规则王不能亮主（declare.joker_pairs 为 false）"),
    "no_reinforce": ("the declarer may not reinforce his declaration (declare.reinforce false)",
                     "亮主者不能加固（declare.reinforce 为 false）"),
    "self_overcall": ("the declarer may not overcall his own declaration (declare.self_overcall false)",
                      "不能反自己的主（declare.self_overcall 为 false）"),
    "jokers_only": ("the declaration has been overcalled: only jokers may overcall now", "已被反过，只能用王再反"),
    "too_weak": ("the declaration does not beat the standing one (declare.overcall_by)",
                 "不够大，反不了（declare.overcall_by）"),
    "partner_barred": ("the declarer's partner declared this suit wrongly (declare.wrong_bars_partner)",
                       "对家此前亮错过这门花色（declare.wrong_bars_partner）"),
    "partner_overcall": ("a player may not overcall his partner's declaration (declare.overcall_partner false)",
                         "不能反对家的主（declare.overcall_partner 为 false）"),
}

# A consequence decides the hand's result in place of the score table: the side that banks next and the
# levels that side gains ("+0": it gains none). The offender is the side at fault. The Chinese names the
# sides, the bank and the hand in the words of a source document ({attackers}, {banker_side} ... of
# spec/glossary.tsv): consequence_zh(code, "003") says 非庄家方 where 001's rulebook says 攻庄方.
CONSEQUENCE_TEXTS: dict[str, tuple[str, str]] = {
    "none": ("no consequence beyond the points: the score table decides, from the attackers' points plus "
             "the penalty points",
             "除{penalty}分外无其他后果：按计分表，以{attackers}得分加{penalty}分定结果"),
    "attackers_take_stage": ("the attackers bank next and gain no level (+0)",
                             "{attackers}下一{hand}{hold}，不升{level}（+0）"),
    "attackers_take_stage_by_points": (
        "the attackers bank next and gain one level per full step of their points, the step being the low end "
        "of the attackers' +1 band minus score.threshold (000: 120 - 80 = 40), at most penalty.wrong_kitty_cap "
        "levels",
        "{attackers}下一{hand}{hold}，按其得分每满一档升一{level}，一档为{attackers}升一{level}那一档的下限减 "
        "score.threshold（000：120 - 80 = 40），至多 penalty.wrong_kitty_cap {level}"),
    "stage_change_plus_one": ("the bank changes hands: the attackers bank next and gain one level (+1)",
                              "换庄：{attackers}下一{hand}{hold}，升一{level}（+1）"),
    "banker_up_one": ("the banker side keeps the bank and gains one level (+1)",
                      "{banker_side}继续{hold}，升一{level}（+1）"),
    "banker_keeps": ("the banker side keeps the bank and gains no level (+0); the attackers' points do not count",
                     "{banker_side}继续{hold}，不升{level}（+0）；{attackers}得分不计"),
    "opponents_up_one": ("the offender's opponents gain one level (+1) and bank next",
                         "犯规方的对方升一{level}（+1），下一{hand}{hold}"),
    "opponents_up_two": ("the offender's opponents gain two levels (+2) and bank next",
                         "犯规方的对方升两{level}（+2），下一{hand}{hold}"),
    "count_as_threshold": ("the attackers' points below score.threshold count as the threshold; at or above it "
                           "the score table's result gains one more level (capped by score.cap)",
                           "{attackers}得分不足 score.threshold 的按该分数计；已达到的，按计分表的结果再多升一{level}"
                           "（受 score.cap 限制）"),
    "count_below_threshold": ("the attackers' points at or above score.threshold count as the highest score of the "
                              "band just below it (003: 115); below it the banker side's result gains one more "
                              "level (capped by score.cap)",
                              "{attackers}得分达到 score.threshold 的按其下一档的最高分计（003：115）；不足的，"
                              "{banker_side}按计分表的结果再多升一{level}（受 score.cap 限制）"),
    "hand_void_rebid": ("the hand is void: nobody banks by it and both sides bid for the bank afresh "
                        "(next_banker null, levels 0)",
                        "该{hand}作废：双方重新抢庄（next_banker 为 null，levels 为 0）"),
    "forfeit_game": ("the offender's team loses the game (next_banker null, levels 0)",
                     "犯规方判负该{game}（next_banker 为 null，levels 为 0）"),
}


def consequence_zh(code: str, document: str | None = None) -> str:
    """The consequence ``code`` in Chinese, in the words of source ``document`` (``"003"``), or the glossary's
    defaults where no one document applies."""
    from .glossary import words
    return CONSEQUENCE_TEXTS[code][1].format_map(words(document))


# code -> (English, Chinese in the glossary's default words): what tractor export writes
CONSEQUENCES: dict[str, tuple[str, str]] = {code: (en, consequence_zh(code)) for code, (en, _) in CONSEQUENCE_TEXTS.items()}


def english(table: dict[str, tuple[str, str]]) -> dict[str, str]:
    return {code: en for code, (en, _) in table.items()}


def chinese(table: dict[str, tuple[str, str]]) -> dict[str, str]:
    return {code: zh for code, (_, zh) in table.items()}
