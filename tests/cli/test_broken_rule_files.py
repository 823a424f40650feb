"""A rule file that does not check, given to a command that reads a ruleset, is bad input: every command
prints the positioned error(s), ``file:line:column: error[E…]``, and ends with exit status 2, as ``tractor
conform`` does (docs/cli.rst, "Options and inputs"). ``tractor check`` and ``tractor fmt`` are the exception:
finding errors in rule files is their job, and they say so with exit status 1."""
from __future__ import annotations

import pytest

from tractor_cli.main import main

# a house file whose second clause has a status the language does not know (E102), and a syntax error (E003)
UNKNOWN_STATUS = '''ruleset house extends r003 {
  override score.table choose thirty_capped because "a cap"
  clause house.note {
    says "A note."
    status stater
    cites 003:1
  }
}
'''
SYNTAX = 'ruleset house extends r003 {\n  title 5\n}\n'


@pytest.fixture(params=["unknown_status", "syntax"])
def broken(request, tmp_path):
    """(file, the position and code of its error)."""
    f = tmp_path / "house.tractor"
    if request.param == "syntax":
        f.write_text(SYNTAX, encoding="utf-8")
        return f, f"{f}:2:9: error[E003]"
    f.write_text(UNKNOWN_STATUS, encoding="utf-8")
    return f, f"{f}:5:12: error[E102]"


@pytest.mark.parametrize("argv", [
    ["show", "{f}"],
    ["show", "{f}", "--zh"],
    ["explain", "{f}", "classify", "5H 5H 7H 7H", "--level", "6", "--trump", "S"],
    ["engine", "--rules", "{f}", "--handshake"],
    ["engine", "--rules", "{f}", "--as", "r003"],
    ["export", "{f}"],
    ["diff", "{f}", "r003"],
    ["play", "{f}", "--seed", "1"],
], ids=lambda a: " ".join(a[:2]))
def test_a_command_given_a_broken_rule_file_says_where_and_exits_2(argv, broken, capsys):
    f, where = broken
    code = main([a.format(f=f) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert where in err and "Traceback" not in err + out
    assert out == ""   # nothing of the command's work: no handshake, no rulebook, no game


def test_an_unknown_ruleset_is_bad_input_too(capsys):
    code = main(["show", "r03"])
    out, err = capsys.readouterr()
    assert code == 2 and "error[E501]: unknown ruleset 'r03'; did you mean 'r003'?" in err and out == ""


def test_check_still_reports_a_broken_file_with_status_1(broken, capsys):
    f, where = broken
    code = main(["check", str(f)])
    out, err = capsys.readouterr()
    assert code == 1 and where in err
