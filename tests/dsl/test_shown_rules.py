"""Everything an engine is judged by is shown: every follow ladder (derived ones too) in ``tractor show``,
``tractor export`` and the protocol's docs; every reason code and penalty consequence defined in words."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.generation.alternatives import ladders_of
from reference_impl.penalties import apply_consequence
from reference_impl.rules import rules_for
from tractor_dsl.checker import load
from tractor_dsl.export import export
from tractor_dsl.schema import PARAMS_BY_NAME
from tractor_dsl.vocabulary import CONSEQUENCES, DECLARATION_REASONS, PLAY_REASONS

LIB = load()
PROTOCOL = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
SIZES = {"single": 1, "pair": 2, "triple": 3}


def _unit(shape: dict) -> tuple[int, int]:
    if shape["unit"] == "tractor":
        return SIZES[shape["element"]], shape["length"]
    return SIZES[shape["unit"]], 1


def _rung(entry: dict) -> list:
    return sorted(u for t in entry["terms"] for u in [_unit(t["shape"])] * t["count"])


@pytest.mark.parametrize("name", ["r000", "r001", "r003", "r001_powers"])
def test_every_ladder_the_suite_judges_is_in_the_export(name):
    shown = {_unit(f["lead"]): [_rung(e) for e in f["ladder"]] for f in export(LIB.get(name))["follow"]}
    judged = ladders_of(rules_for(name))
    assert judged, "the suite judges some ladder"
    for unit, rungs in judged.items():
        assert shown.get(unit) == [sorted(r) for r in rungs], f"{name}: the ladder of {unit} as shown"


def _show(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "tractor_cli.main", "show", *args], capture_output=True,
                         text=True, timeout=120, env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_ladder_of_a_tractor_of_four_pairs_is_shown_in_both_languages():
    # two tractors of two pairs come before a tractor of two pairs and two loose pairs (000:2.16c)
    en, zh = _show("r000"), _show("r000", "--zh")
    line = next(x for x in en.splitlines() if x.strip().startswith("follow tractor(pair, 4):"))
    assert line.index("2 tractor(pair, 2)") < line.index("tractor(pair, 2) + 2 pair")
    line_zh = next(x for x in zh.splitlines() if x.strip().startswith("跟4连对："))
    assert line_zh.index("2个2连对") < line_zh.index("2连对 + 2个对子")
    assert "跟对子：对子 / 2张单牌" in zh          # a listed ladder, in Chinese too
    derived = [f for f in export(LIB.get("r000"))["follow"] if f["derived"]]
    assert [f["text"] for f in derived] == ["tractor(pair, 4)"] and derived[0]["clause"] == "follow.throw"


def _doc_table(heading: str) -> dict[str, str]:
    part = PROTOCOL[PROTOCOL.index(heading):]
    part = part[:part.index("\n\n", part.index("|---|"))]
    return dict(re.findall(r"^\| `([a-z_]+)` \| (.+) \|$", part, re.M))


def test_every_code_is_defined_in_the_docs_and_the_export_alike():
    codes = export(LIB.get("r000"))["codes"]
    for heading, table, key in (("## Reason codes", PLAY_REASONS, "reasons"),
                                ("### Declaration reason codes", DECLARATION_REASONS, "declaration_reasons"),
                                ("### Penalty consequences", CONSEQUENCES, "consequences")):
        doc = _doc_table(heading)
        assert set(doc) == set(table) == set(codes[key]), heading
        for code, (en, zh) in table.items():
            assert doc[code].startswith(en) and codes[key][code] == {"en": en, "zh": zh}
    assert set(CONSEQUENCES) == set(PARAMS_BY_NAME["penalty.revoke"].type.fields["banker_side"].choices)
    assert "reference_impl/penalties.py" not in PROTOCOL    # defined in words, not by the source


@pytest.mark.parametrize("code", [c for c, (en, _) in CONSEQUENCES.items() if re.search(r"\(\+\d\)", en)])
def test_a_consequence_does_what_its_words_say(code):
    en = CONSEQUENCES[code][0]
    levels = int(re.search(r"\(\+(\d)\)", en).group(1))
    side = "attackers" if "attackers bank next" in en else "banker" if "banker side keeps" in en else None
    rules = rules_for("r000")
    for offender in ("banker", "attackers"):
        result = apply_consequence(rules, code, offender, 100).value
        expected = side or ("attackers" if offender == "banker" else "banker")   # "the offender's opponents"
        assert (result.next_banker, result.levels) == (expected, levels), (code, offender)


def test_the_input_domains_are_stated_as_the_reference_holds_them():
    from conformance.protocol.engine import InputError, judge
    bands = export(LIB.get("r000"))["bands"]["rows"]
    for b in bands:       # the docs name r000's bands as the export has them
        text = f"`{'' if b['low'] is None else b['low']}..{'' if b['high'] is None else b['high']}`"
        assert text in PROTOCOL
    with pytest.raises(InputError):
        judge("result", "r000", {"attackers_points": 37})      # no band covers it, as the docs say
    empty, _ = judge("classify", "r000", {"level": "J", "trump": "S", "cards": []})
    assert empty == {"kind": "empty", "suit": None, "components": []} and '{"kind": "empty", "suit": null' in PROTOCOL
    mixed, _ = judge("classify", "r000", {"level": "J", "trump": "H", "cards": ["JS", "5S"]})
    assert mixed["kind"] == "mixed" and "with trump `H` it is `mixed`" in PROTOCOL
    first, _ = judge("undeclared", "r000", {"level": "2", "attackers_level": "2", "first_hand": True,
                                            "kitty": ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"]})
    assert first["banker_side"] is None and first["first_hand_banker"] == "first_drawer"
    assert "**always in a first hand**" in PROTOCOL
    with pytest.raises(InputError):        # offender both: only where the ruleset names the case
        judge("penalty", "r000", {"faults": [{"fault": "revoke", "offender": "both", "count": 1}],
                                  "attackers_points": 100})
    judge("penalty", "r001", {"faults": [{"fault": "wrong_count", "offender": "both"}], "attackers_points": 100})
    assert "only r001's `wrong_count`" in PROTOCOL
