"""The vocabulary of settings a ruleset states.

Every setting a clause may ``set`` is listed here with its type and what it
means. A checked ruleset must set every required setting exactly once (in one
clause or in the chosen reading of one clause): that is how each decision of
the interpreter is traced back to a clause. Follow ladders (``follow``) and
score bands (``band``) have their own statements and are collected into the
settings ``follow.ladders`` and ``score.bands``.
"""
from __future__ import annotations

from dataclasses import dataclass

from .types import (TIERS, BoolType, CardType, EnumType, FormulaType, IntType, LevelType, ListType,
                    MapType, OptionalType, RankType, RecordType, TextType, ValueType)


@dataclass(frozen=True)
class Param:
    """A setting: its name, type and meaning.

    ``informative`` marks a setting no judgment of the interpreter reads: it
    records what the source says (a tournament's format, its standings) for
    the reader and the docs, and no position can depend on it.
    """

    name: str
    type: ValueType
    doc: str
    required: bool = True
    informative: bool = False


_tier = EnumType(*TIERS)
_consequence = EnumType(
    "none",                   # nothing beyond the points
    "attackers_take_stage",   # the attackers become the banker side, no level gained
    "attackers_take_stage_by_points",  # ... and rise one level per full step of their points (cap applies)
    "stage_change_plus_one",  # the bank changes hands and the new banker rises one level
    "banker_up_one",          # the banker side rises one level
    "opponents_up_two",       # the offender's opponents rise two levels
    "count_as_threshold",     # attackers' points count as at least the stage threshold; at or above it, one more level
    "count_below_threshold",  # attackers' points count as below the threshold; below it, one level less
    "hand_void_rebid",        # the hand is void; both sides bid for the bank at their own levels
    "banker_keeps",           # the banker side keeps the bank, no level (the attackers' points do not count)
    "opponents_up_one",       # the offender's opponents rise one level and hold the bank next
    "forfeit_game",           # the offender's team loses the game
)
_multiplier_table = RecordType(
    {"single": FormulaType(), "pair": FormulaType(), "triple": FormulaType(),
     "tractor": FormulaType(), "throw": FormulaType()},
    optional=("triple", "throw"))
_fault = RecordType({
    "points_per_card": IntType(0, 1000),
    "ends_hand": BoolType(),
    "banker_side": _consequence,
    "attackers": _consequence,
    # found only later, when the fault can no longer be undone (absent: as when found at once)
    "late_banker_side": _consequence,
    "late_attackers": _consequence,
    # players of both sides at fault at once (absent: the ruleset names no such case)
    "both_sides": _consequence,
}, optional=("late_banker_side", "late_attackers", "both_sides"))
_by_side = RecordType({"banker_side": _consequence, "attackers": _consequence})
_lateness_step = RecordType({"over": IntType(0, 1000), "points": IntType(0, 1000), "consequence": _consequence})

PARAMS: tuple[Param, ...] = (
    # --- equipment ---
    Param("equipment.decks", IntType(1, 4), "Number of standard 54-card decks shuffled together; with four, "
          "four identical cards are a unit of their own (a quad, 四条), followed by a quad first."),
    Param("equipment.players", IntType(4, 4), "Players at the table, in two teams of two, partners opposite."),
    Param("equipment.hand_size", IntType(1, 60), "Cards each player holds after the deal."),
    Param("equipment.kitty_size", IntType(0, 20), "Cards in the kitty (底牌)."),
    Param("equipment.points", MapType(RankType(), IntType(0, 100)), "Point value of each point rank (分牌)."),
    Param("equipment.removed", ListType(CardType(), min_items=1),
          "Cards taken out of the pack before the deal (one copy each time a card is listed), so that hands and "
          "kitty come out even (a kitty of 6 with two decks: two cards out). Not set: none.", required=False),
    # --- levels ---
    Param("level.ranks", ListType(LevelType(), min_items=2, unique=True),
          "The levels in the order teams climb them. The last may be NT, the no-trump level (V66, 无主级): a "
          "hand at NT has no level card and no trump suit - nothing is declared, the jokers (and any fixed or "
          "named trumps) are the only trumps, and every rank stays in its suit."),
    Param("level.start", LevelType(), "The level both teams start at (not NT: the first hand declares)."),
    Param("level.end", OptionalType(LevelType()),
          "The last level: a team that passes it wins the game; none for no end."),
    Param("level.end_on", EnumType("pass", "reach"),
          "When the last level ends the game (H36): 'pass' - a team wins by passing level.end; 'reach' - a team "
          "wins as soon as it reaches level.end, and a gain beyond it stops there (the level is capped). Not set: "
          "pass.", required=False),
    Param("level.must_play", ListType(LevelType(), unique=True),
          "Levels that cannot be skipped (必打): a gain stops there."),
    Param("level.must_defend", ListType(LevelType(), unique=True),
          "Levels that must be defended (必须坐庄打过): a climb stops there as at a must-play level, and a team "
          "standing on one leaves it only by a hand it wins as banker - a gain as attackers (taking the bank) "
          "leaves it there. With level.wrap only a banker's win at the last level wraps past it. [5, 10, K, A]: "
          "the point ranks and A must be won as banker. Not set: none.", required=False),
    Param("level.knock_back", RecordType({"level": RankType(), "to": RankType(), "pair": RankType(),
                                          "triple": RankType(), "min_points": IntType(0, 1000)},
                                         optional=("to", "pair", "triple", "min_points")),
          "The jack rule (钩J): when a hand is played at 'level' and the attackers win its last trick with a "
          "single card of that rank, the banker's team goes back to the level 'to' ({level: J, to: 2}); with "
          "'pair' (or 'triple'), a pair (triple) of that card sends it back to that level ({level: J, to: 7, "
          "pair: 3}); with 'min_points', only when the attackers end the hand with at least that many points. A "
          "shape with no level named sends nobody back. Read on a whole hand and game. Not set: no such rule.",
          required=False),
    Param("level.wrap", BoolType(),
          "Whether the levels wrap past the last one back to the first (a team beyond A plays 2 again), so that "
          "a must-play first level (逢2必打) stops a climb past the last; needs level.end = none. Not set: false. "
          "A time-out still compares levels by their place in level.ranks.", required=False),
    # --- card order ---
    Param("trump.fixed_ranks", ListType(RankType(), unique=True),
          "Ranks that are always trump (常主), e.g. all 2s, highest first: [2, 10] puts the 2s above the 10s in "
          "each of the tiers trump_fixed and off_fixed (before issue 19 the order was ignored and the ranks "
          "ranked by face)."),
    Param("trump.named_cards", ListType(CardType(), min_items=1, unique=True),
          "Suited cards that are always trump, highest first, at the place of the tier 'named' in trump.order "
          "(the heart 5 above the big joker, 红五: [{rank: 5, suit: hearts}] with trump.order = [named, "
          "big_joker, ...]); a named card leaves its suit, its level tier and its fixed tier. Not set: none.",
          required=False),
    Param("trump.order", ListType(_tier, min_items=3, unique=True), "Trump tiers, highest first; cards in one tier of "
          "different suits (off-suit level cards, off-suit fixed ranks) are equal and the first played wins, "
          "unless trump.off_suit_order ranks them (H32). "
          "Without the tiers trump_level and off_level (both left out) the level cards stay in their suits "
          "and only the trump suit's cards and the other tiers are trump; they still declare."),
    Param("trump.off_suit_order", ListType(EnumType("spades", "hearts", "diamonds", "clubs"), unique=True),
          "Off-suit trumps of one rank ranked by suit (H32): the four suits, highest first, the trump suit left "
          "out in each hand. The tier off_level, and each rank of the tier off_fixed, becomes one place per suit "
          "in this order instead of one place of equal cards ([spades, hearts, diamonds, clubs] with hearts "
          "trump at level 5: 5S above 5D above 5C). Under tractor.adjacency = trump_order pairs of neighbouring "
          "suits of one rank then chain, as cards adjacent in the card order (5S5S5D5D; the source engine, "
          "tuolaji, chains consecutive orders), but not across two ranks of off_fixed; by face_rank suits never "
          "chain. The fixed ranks are ranked too (interpretation: the engine has none; the alternative, level "
          "cards only, has no setting). A junction with the tier chains at its edge (interpretation: the engine "
          "has no such junction): "
          "[trump_level, off_level] the trump-suit level card with the highest off-suit one, [off_level, "
          "trump_suit] the lowest off-suit level card with the trump-suit A, a no-trump hand's small joker "
          "(tractor.no_trump_junction) with the highest level card; the alternative - any off-suit level pair "
          "at the junction, as when they are equal - has no setting. Not set: the cards of one place are equal "
          "and the first played wins.", required=False),
    Param("trump.equal_cards", EnumType("first_played"), "Which of two equal cards wins."),
    # --- combinations ---
    Param("tractor.elements", ListType(EnumType("pair", "triple"), min_items=1, unique=True),
          "What a tractor (拖拉机) is made of."),
    Param("tractor.min_length", IntType(2, 13), "Fewest adjacent pairs or triples in a tractor."),
    Param("tractor.mixed", BoolType(), "Whether pairs and triples may chain in one tractor (88999)."),
    Param("tractor.adjacency", EnumType("trump_order", "face_rank"),
          "Which cards are adjacent: by position in the card order, or by face rank within one suit."),
    Param("tractor.bridge_level", BoolType(), "Whether ranks either side of the removed level rank are adjacent."),
    Param("tractor.junctions", ListType(ListType(_tier, min_items=2)),
          "Pairs of trump tiers whose boundary cards chain (e.g. [small_joker, trump_level])."),
    Param("tractor.off_level_chain", BoolType(),
          "Whether pairs (or triples) of off-suit level cards of different suits chain with one another "
          "(5♥5♥5♦5♦ at level 5 with spades trump), any two or more of them, though the cards are equal in rank. "
          "Not set: false (they hold one place in the card order and never chain; under trump.off_suit_order "
          "neighbouring suits chain).", required=False),
    Param("tractor.ace_two", EnumType("none", "lowest", "by_top_card"),
          "Whether the trump-suit A and 2 chain (AA22) when 2s are fixed trump, and how such a tractor ranks."),
    Param("tractor.no_trump_junction", BoolType(),
          "In a no-trump hand, whether the level cards (all four suits, directly below the small joker) chain "
          "with the small joker: a small-joker pair and a pair (or triple) of level cards."),
    # --- comparison ---
    Param("compare.element_over_length", BoolType(),
          "Different shapes of equal size: a tractor of triples beats a tractor of pairs (999888 > AAKKQQ)."),
    Param("compare.multi", EnumType("largest_component", "highest_card", "by_component", "every_component"),
          "How a play of several components (a throw, or a ruff of one) is ranked: by its largest component, by "
          "its highest card, or 'by_component' - component by component, largest first, the first difference "
          "deciding (a tie on every component: the first played wins) - or 'every_component' (H30) - a play beats "
          "the winning play only when each of its components beats the component of the same shape it is "
          "matched with, highest with highest (its cards may be matched any way that makes the winning play's "
          "shapes; a component equal or lower and the earlier play stands; a first ruff still takes a side "
          "suit's trick)."),
    # --- leading ---
    Param("throw.allowed", BoolType(), "Whether a throw (甩牌) may be led."),
    Param("throw.check", EnumType("components_unbeatable", "singles", "smallest_vs_largest", "unchecked"),
          "How a throw is judged unbeatable when it is led: each component against the same shape in the other "
          "hands, card by card as singles, or its smallest card against their largest; or 'unchecked' (H28) - "
          "not at all: a throw of one suit stands as led, no other hand is looked at, so no throw fails (no "
          "penalty, no forced play). It is still played out as its trick: a follow or a ruff may beat it, "
          "unlike throw.wins_trick (H02)."),
    Param("throw.penalty_points", IntType(0, 100), "Points per counted card when a throw fails."),
    Param("throw.penalty_by_blocked", RecordType({"single": IntType(0, 100), "pair": IntType(0, 100),
                                                  "triple": IntType(0, 100), "tractor": IntType(0, 100)},
                                                 optional=("triple",)),
          "Points per counted card (throw.penalty_per) by what blocks a failed throw (H05), in place of "
          "throw.penalty_points: the kind of the largest component of the throw another hand beats (a tractor "
          "before a triple, a pair, a single); under throw.check = singles or smallest_vs_largest every block is "
          "by a single card. 'triple' is needed with three or more decks. Not set: throw.penalty_points.",
          required=False),
    Param("throw.penalty_per", EnumType("card_thrown", "card_blocked", "card_taken_back", "attempt"),
          "Which cards the failed-throw penalty counts; 'attempt' - none: the points once per failed throw (a "
          "failed_throw fault's count is then the number of attempts)."),
    Param("throw.forced_play", EnumType("smallest_card", "smallest_component", "blocked_component", "first_blocker",
                                        "singles_first", "blocked_fewest"),
          "What the thrower must play instead after a failed throw: the smallest card, the smallest component, "
          "the smallest blocked component, 'first_blocker' - the smallest component the first opponent after "
          "the thrower (in playing order) can beat (the partner's, when only he can) - or 'singles_first' (H03) - "
          "the smallest of the throw's components with the fewest cards: a single of the throw if it has one, "
          "else a pair, and so on - or 'blocked_fewest' (H27) - of the blocked components, the one with the fewest "
          "cards, the lowest of equals (a blocked single before a blocked pair)."),
    Param("throw.banned_in", ListType(EnumType("trump", "side_suits"), min_items=1, unique=True),
          "Where no throw may be led though throw.allowed is true (H04): 'trump' - no throw of trumps (不许甩主), "
          "'side_suits' - no throw of a side suit; such a lead is refused as throw_not_allowed. Not set: a throw "
          "may be led in every suit.", required=False),
    Param("throw.split", EnumType("triples_first", "largest_first"),
          "How a throw is split into components: 'largest_first' - repeatedly the component with the most cards, "
          "triples before pairs on a tie, then the higher (88999 is a tractor of pairs and a single); "
          "'triples_first' - the same, but a triple is never broken to make a tractor of pairs (88999 is a pair "
          "and a triple)."),
    Param("throw.judged_against", EnumType("all_others", "opponents"),
          "Whose hands can block a throw: the other three players, or only the two opponents."),
    Param("throw.late", _by_side,
          "A failed throw found only after the next trick (concealed by the thrower's partner): the consequence "
          "for the thrower's side, besides the points. Not set: a failed throw found late is priced as one "
          "found at once.", required=False),
    Param("throw.ruff_blocks", BoolType(),
          "Whether a side-suit throw is also beaten, when it is judged (throw.check), by another hand void in its "
          "suit that holds trumps of a component's shape (H35): a trump single beats a single, a trump pair a pair, "
          "a trump tractor of as many pairs a tractor - under 'singles' and 'smallest_vs_largest' any trump beats "
          "every card. Not set: false - only cards of the throw's suit beat it at its lead; a ruff is played in the "
          "trick.", required=False),
    Param("throw.wins_trick", BoolType(),
          "Whether a throw once accepted (not beaten, throw.check) wins its trick outright (H02): no ruff and no "
          "follow takes it. Not set: false - a follower void in the led suit may ruff it with trumps of the "
          "lead's structure (000:2.16b, 003:7.5).", required=False),
    # --- following ---
    Param("follow.fill", EnumType("free", "lowest_first"),
          "How a tractor of pairs is followed by a player holding more cards of its suit and pairs, but no tractor "
          "as long (H37): 'free' - as the follow ladder asks, any cards meeting it; 'lowest_first' - the play is dictated: "
          "the player's longest run of pairs (the lowest of equal runs), then the lowest pairs, then the lowest "
          "cards, to the lead's count; any other play is refused as must_play_tractor. Two decks only. Not set: "
          "free.", required=False),
    Param("follow.suit", BoolType(), "Followers must play the led suit while they hold it."),
    Param("follow.reason_order", EnumType("largest", "pairs_first"),
          "Which obligation a refused follow names when it falls short of several (H38; the sources refuse the play "
          "and name none): 'largest' - a tractor before a triple before a pair; 'pairs_first' - too few pairs "
          "(fewer than the follow order asks for, a pair counted in every two equal cards played) is named first, "
          "must_play_pair, and the largest of the others after it. Legality is the same under both. Not set: "
          "largest.", required=False),
    Param("follow.unlisted", EnumType("component_ladders", "counts"),
          "The obligation for a lead with no follow ladder of its own (throws, shapes not listed): "
          "'component_ladders' - each component of the lead is followed by its own ladder, and a tractor's "
          "derived ladder asks for the whole tractor, then for the longest shorter tractors held (a tractor and "
          "pairs before pairs alone), then pairs and triples, then singles; 'counts' - only as many triples "
          "and pairs as can be played, in any arrangement."),
    Param("follow.break_triple_for_pair", BoolType(), "Whether a follower must break a triple to follow a pair."),
    Param("follow.pairs_before_triples", BoolType(),
          "When a tractor is led, whether the pairs a follower plays come from the pairs he holds before any "
          "triple is broken: a play that breaks a triple for a pair while a pair held stays in the hand is "
          "refused (a triple may not stand in for a pair). Not set: false.", required=False),
    Param("follow.protect_tractors", BoolType(),
          "Whether a follower need not break a tractor he holds to follow a pair or a triple: the pairs and "
          "triples of his tractors do not count for a pair or triple led (he may still play them). Not set: "
          "false.", required=False),
    Param("follow.ladders", RecordType({}), "Follow ladders by lead shape (from 'follow' statements).", required=False),
    # --- trick ---
    Param("ruff.structure", EnumType("same_shape", "same_counts", "any_trumps"),
          "What a trumping play (枪毙) must contain to win: the lead's exact shape, as many tractors and pairs, or "
          "'any_trumps' - as many trumps as the lead has cards, of any shape (ruffs are then ranked as plays "
          "of several components are, compare.multi)."),
    # --- kitty ---
    Param("kitty.exchange", BoolType(), "The banker takes the kitty and buries as many cards."),
    Param("kitty.capturers", EnumType("attackers", "both"), "Who captures the kitty by winning the last trick."),
    Param("kitty.trump_only", BoolType(), "Only a trump play winning the last trick captures the kitty."),
    Param("kitty.multiplier", RecordType({"trump": _multiplier_table, "side": _multiplier_table}),
          "Kitty multiplier by the winning play's suit and shape; 'cards' is the number of cards of the unit, "
          "'pairs' the number of pairs in it (pairs inside a tractor counted; a triple holds one)."),
    Param("kitty.banker_multiplier", OptionalType(_multiplier_table),
          "When the banker side captures: the kitty points times this are deducted from the attackers."),
    Param("kitty.multi_unit", EnumType("largest_component", "whole_play"),
          "For a winning play of several components: multiply by its largest component or by the whole play."),
    # --- scoring ---
    Param("score.bands", ListType(TextType()), "Score table rows (from 'band' statements).", required=False),
    Param("score.threshold", IntType(0, 1000), "Attackers' points needed to take the stage (上台)."),
    Param("score.cap", OptionalType(IntType(1, 20)), "Most levels either side may gain in one hand."),
    Param("score.banker_needs_last_trick", BoolType(),
          "Whether the banker side rises only if it wins the last trick: keeping the bank without the last trick, "
          "it gains no level (the attackers' gains are unchanged). Read on a whole hand (the hand operation). "
          "Not set: false.", required=False),
    # --- declaring ---
    Param("declare.joker_pairs", BoolType(), "Whether a pair of jokers may declare or overcall."),
    Param("declare.joker_trump", EnumType("no_trump", "keep_suit"),
          "What a joker-pair declaration makes trump: no_trump, the hand has no trump suit; keep_suit (H34), the "
          "pair wins the contest and the suit of the declaration it overcalls stays trump (a joker pair declared "
          "first has none to keep: no trump)."),
    Param("declare.overcall_by", EnumType("more_copies", "copies_then_jokers"),
          "What beats a declaration: more copies; or more copies, then jokers over level cards at equal count."),
    Param("declare.after_overcall", EnumType("any", "jokers_only"), "What may overcall an overcall."),
    Param("declare.self_overcall", BoolType(), "Whether a player may overcall his own declaration."),
    Param("declare.suit_precedence", ListType(EnumType("spades", "hearts", "diamonds", "clubs"), min_items=2,
                                              unique=True),
          "Suits highest first: at an equal count of level cards, a declaration in a suit listed higher "
          "overcalls one in a suit listed lower (suits not listed rank below those listed). Not set: an equal "
          "count never overcalls.", required=False),
    Param("declare.retake", BoolType(),
          "Whether a declarer who has been overcalled may add copies of his own card and, reaching the count "
          "of the standing declaration, take trump back (an equal count suffices; the rule on what may follow "
          "an overcall does not apply). Not set: false.", required=False),
    Param("declare.overcall_partner", BoolType(),
          "Whether a player may overcall his partner's declaration (H06: false - 不许反对家). Not set: true.",
          required=False),
    Param("declare.joker_count", EnumType("pair", "all_decks"),
          "How many identical jokers a joker declaration (a no-trump declaration or overcall) shows: 'pair' - two "
          "or more; 'all_decks' (H07) - as many as there are decks (three small or three big jokers with three "
          "decks). Not set: pair.", required=False),
    Param("declare.jokers_when", EnumType("any_time", "after_burial"),
          "When jokers may declare or overcall: 'after_burial' (H08) - only once the banker has taken up the kitty "
          "(buried), when declare.closes would close declaring to any other card; a joker declaration before is "
          "refused. Not set: any_time. A whole hand played by the interpreter has no declaring after the burial.",
          required=False),
    Param("declare.reinforce", BoolType(), "Whether a player may reinforce (加固) his own declaration."),
    Param("declare.first_hand_card", OptionalType(CardType()), "A card every first-hand declaration must show."),
    Param("declare.overcall_moves_bank", EnumType("never", "first_hand", "every_hand"),
          "Whether an overcall also moves the bank (反主反庄): 'never', 'first_hand' (in the first hand only; later "
          "hands' declarations change only trump), or 'every_hand' (H31, the bank is bid for in every hand): in every "
          "hand, not only the first, the first declaration makes its declarer banker and each overcall moves the bank "
          "to the overcaller, whatever the previous hand's result said; with no declaration the standing banker stays "
          "(declare.fallback_later as ever). 'first_hand' and 'every_hand' need declare.first_hand_banker = "
          "last_declarer (E233). Interpretation (every_hand): a hand whose bank changes sides by a declaration is "
          "played at the level set before declaring (the standing banker's side's level), whose level cards were "
          "declared - as the tuolaji engine plays it (its trump rank is fixed when the hand is dealt); the "
          "alternative, the new banker's side's level, would leave trump named by cards that are not level cards."),
    Param("declare.first_hand_banker", EnumType("first_declarer", "last_declarer"),
          "Who is banker in the first hand (抢庄)."),
    Param("declare.fallback_first_hand", EnumType("kitty_card", "redeal", "first_level_card", "no_trump"),
          "No declaration in the first hand: trump from the kitty (declare.kitty_card), a redeal, "
          "'first_level_card' - the kitty is turned card by card and the first level card names its suit, else "
          "the highest card turned does (the first of equals; only jokers: no trump) - or 'no_trump' (H01, 无人亮主"
          "打无主): the hand is played at its level without a trump suit (the jokers, the level cards and any "
          "fixed trumps are trump), the banker the player bank.first_hand_undeclared names."),
    Param("declare.fallback_later", EnumType("kitty_card", "smothered", "redeal", "first_level_card", "no_trump"),
          "No declaration in later hands: trump from the kitty, a smothered banker (憋死), a redeal at the same "
          "level with the same banker, the first level card turned from the kitty (as for the first hand), or "
          "'no_trump' (H01): the same banker plays the hand at his level without a trump suit."),
    Param("declare.kitty_card", IntType(1, 20), "Which kitty card (counted from the first) names trump."),
    Param("declare.kitty_skip_jokers", BoolType(), "Whether a joker turned from the kitty is skipped."),
    Param("declare.kitty_joker", EnumType("no_trump", "next_card"),
          "When jokers are not skipped and the named kitty card is a joker."),
    Param("declare.smothered_banker", EnumType("same_banker", "attackers"),
          "Who is banker in the redeal after a smothered banker (憋死)."),
    Param("declare.smothered_level", EnumType("attackers_level", "banker_level"),
          "At whose level the redeal after a smothered banker is played."),
    Param("declare.closes", EnumType("kitty_taken", "first_card_played"),
          "When declaring and overcalling end: when the banker takes up the kitty, or when the first card is played."),
    Param("declare.wrong_points", IntType(0, 100), "Points lost for a wrong declaration."),
    Param("declare.wrong_bars_partner", BoolType(),
          "Whether a wrong declaration bars the offender's partner from declaring the suit it showed."),
    # --- penalties ---
    Param("penalty.points_to", EnumType("attackers_score"),
          "How penalty points are scored: an attacker's penalty is deducted from the attackers' points, "
          "a banker-side penalty is added to them."),
    Param("penalty.revoke", _fault, "Revoke (藏牌): not following when able."),
    Param("penalty.wrong_count", _fault, "A player holds too many or too few cards (劳改, 手中多牌少牌)."),
    Param("penalty.played_count", _fault, "A player plays too many or too few cards to a trick (出多牌、出少牌)."),
    Param("penalty.wrong_kitty", _consequence, "The banker buried the wrong number of cards."),
    Param("penalty.wrong_kitty_cap", OptionalType(IntType(1, 20)),
          "Most levels the attackers gain when they take the stage by points for a wrong kitty; none for no cap."),
    Param("penalty.exposed_card_points", IntType(0, 100), "Points per exposed card (罚张)."),
    Param("penalty.looking_back_points", IntType(0, 100),
          "Points each time a player touches cards others have played, or asks his partner what he played.",
          required=False),
    Param("penalty.signals", _fault, "Talking about the cards or signalling to one's partner.", required=False),
    Param("penalty.lateness", ListType(_lateness_step, min_items=1),
          "Lateness at the start of a game: each step applies to a team more than 'over' minutes late (the "
          "last step it passes): points in the first hand and a consequence.", required=False),
    Param("penalty.several", EnumType("first_decides", "penalties_stand"),
          "Several faults in one hand: their points add up and the first fault with a consequence decides the "
          "hand; a fault that ends the hand voids its points - 'first_decides': penalty points included; "
          "'penalties_stand': trick points only, the penalty points already incurred stand."),
    # --- the bank ---
    Param("bank.succession", EnumType("rotate", "same_player", "last_trick_winner"),
          "Which player holds the bank next: 'rotate' - the banker's partner when the banker side keeps it, the "
          "player after the banker when the attackers take it; 'same_player' - the banker keeps it himself, the "
          "player after him takes it for the attackers; 'last_trick_winner' (H22) - the banker keeps it himself, and "
          "when the attackers take it the attacker who won the last trick banks (the player after the banker when "
          "the banker's side won it)."),
    Param("bank.first_hand_undeclared", EnumType("first_drawer"),
          "Who is banker in a first hand that nobody declares and that is not redealt."),
    # --- deal ---
    Param("deal.redeal_if", ListType(EnumType("no_points", "no_trumps"), min_items=1, unique=True),
          "Conditions on a player's hand after the deal that make the cards be dealt again (before declaring): "
          "'no_points' - he holds no point card; 'no_trumps' - he holds no card that is trump in every suit "
          "(a joker, a level card or a fixed trump). Not set: no redeal for a hand's contents.", required=False),
    Param("deal.redeal_at_most", RecordType({"points": IntType(0, 400), "trumps": IntType(0, 60)},
                                            optional=("points", "trumps")),
          "Weak hands (H24): the conditions of deal.redeal_if read as 'at most' - 'points': a hand of at most "
          "that many card points meets no_points; 'trumps': a hand of at most that many cards trump in every "
          "suit meets no_trumps ({points: 15, trumps: 3}). Not set (or a field left out): none at all (V82).",
          required=False),
    Param("deal.direction", EnumType("counter_clockwise", "clockwise"),
          "The way round the table players draw and play. The interpreter numbers seats in playing order, so "
          "the direction changes no judgment.", informative=True),
    Param("deal.first_drawer", EnumType("banker", "cut_count", "next_banker"),
          "Who draws first: the banker, the player a turned card's rank counts to, or the next banker. The "
          "interpreter numbers seats from the first hand's first drawer (seat 0), and in later hands the banker "
          "of the hand draws first under every value, so it changes no judgment.", informative=True),
    # --- match and tournament ---
    Param("match.minutes", OptionalType(IntType(1, 1000)), "Length of a game (局) in minutes."),
    Param("match.no_new_deal_minutes", IntType(0, 60), "No new hand is dealt in the last so many minutes."),
    Param("match.at_time", EnumType("finish_hand_in_play", "finish_after_first_card"),
          "What happens to the hand in progress when time runs out: 'finish_hand_in_play' - a hand whose deal "
          "is complete is played out, one still being dealt is abandoned; 'finish_after_first_card' - only a "
          "hand whose first card has been played is played out."),
    Param("match.timeout_winner", EnumType("higher_level"), "Who wins when time runs out."),
    Param("match.tie", EnumType("banker_after_last_hand", "banker_of_last_hand"), "Who wins on equal levels."),
    Param("tournament.format", EnumType("knockout", "round_robin"), "How pairings are made.", informative=True),
    Param("tournament.match_points", RecordType({"win": IntType(0, 10), "loss": IntType(0, 10)}),
          "Points for a match won or lost.", required=False, informative=True),
    Param("tournament.team_points", ListType(IntType(0, 100)), "Points for big-team places 1st, 2nd, ...",
          required=False, informative=True),
    Param("tournament.tie_break", TextType(), "How equal standings are broken.", required=False, informative=True),
)

PARAMS_BY_NAME: dict[str, Param] = {p.name: p for p in PARAMS}

# Statements that collect into a setting rather than being set directly.
COLLECTED = {"follow.ladders": "follow", "score.bands": "band"}

LEAD_UNITS = ("single", "pair", "triple")
BAND_SIDES = ("banker", "attackers")
STATUSES = ("stated", "interpreted", "conduct")
