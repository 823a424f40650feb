"""Every option of every command is checked before any work (issue 30, items 8, 11, 12, 14): a bad value is
one line naming the option and exit status 2, never a run that widens, hangs, or fails after its last case."""
from __future__ import annotations

import pytest

from tractor_cli.main import build_parser, main

ENGINE = "tractor engine"


def refused(argv: list[str], capsys) -> str:
    """The message of a command line refused before any work (exit status 2); fails when it is taken.
    ``conform`` checks most values with its plan, one line each, before it starts an engine: run as a process."""
    if argv[0] == "conform":
        from tests.conformance.conftest import cli
        r = cli(*argv, "--report", "")
        assert r.returncode == 2, (argv, r.stderr)
        assert "did not start" not in r.stderr, r.stderr   # refused before any engine starts
        return r.stderr.strip().splitlines()[-1]   # the message: after the usage, for argparse's own checks
    parser = build_parser(argv[0])
    with pytest.raises(SystemExit) as e:
        parser.parse_args(argv)
    assert e.value.code == 2, argv
    return capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["conform", "--engine", ENGINE],
    ["play", "r000"],
    ["mutate", "r000"],
    ["fingerprint", "--engine", ENGINE, "--ruleset", "r000"],
    ["impact", "r000", "r001"],
    ["vectors", "check"],
])
@pytest.mark.parametrize("address", ["foo", "tcp://foo", "foo:", "tcp://:8786", "foo:99999", "http://foo:80"])
def test_a_scheduler_address_without_host_and_port_is_refused_by_every_command(argv, address, capsys):
    err = refused(argv + ["--scheduler", address], capsys)
    assert "--scheduler" in err and address in err


@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "localhost:8786", "tls://[::1]:8786"])
def test_a_scheduler_address_with_host_and_port_is_taken(address):
    args = build_parser("play").parse_args(["play", "r000", "--scheduler", address])
    assert args.scheduler == address


@pytest.mark.parametrize("argv", [
    ["conform", "--engine", ENGINE, "--ops", ",,"],
    ["conform", "--engine", ENGINE, "--ops", ""],
    ["conform", "--engine", ENGINE, "--ops", "classify,,follow"],
    ["conform", "--engine", ENGINE, "--ruleset", ","],
    ["conform", "--engine", ENGINE, "--ruleset", "r000", "--ruleset", ""],
    ["mutate", "r000", "--stages", ","],
    ["mutate", "r000", "--stages", "default,"],
    ["vectors", "check", "--ruleset", ""],
    ["diff", "r000", "r001", "--topic", ""],
])
def test_an_empty_list_or_an_empty_item_is_refused_not_read_as_everything(argv, capsys):
    err = refused(argv, capsys)
    assert "empty name" in err


def test_a_plan_with_an_empty_list_of_operations_is_refused():
    """The Python interface too: ops=[] is not 'every operation'."""
    from conformance.plan import RunPlan
    assert any("--ops" in p for p in RunPlan(engines=[ENGINE], ops=[]).problems())
    assert any("--ruleset" in p for p in RunPlan(engines=[ENGINE], rulesets=[""]).problems())
    assert RunPlan(engines=[ENGINE], ops=["classify"], rulesets=["r000"]).problems() == []


@pytest.mark.parametrize("option, value", [
    ("--timeout", "0"), ("--timeout", "-1"), ("--timeout", "nan"), ("--timeout", "inf"), ("--timeout", "1e9"),
    ("--positions", "-1"), ("--positions", "0"), ("--positions", "100000000000"), ("--positions", "x"),
])
def test_fingerprint_numbers_are_bounded_as_conform_bounds_them(option, value, capsys):
    err = refused(["fingerprint", "--engine", ENGINE, "--ruleset", "r000", option, value], capsys)
    assert option in err


def test_fingerprint_timeout_bounds_are_conform_bounds():
    from conformance.plan import TIMEOUT_RANGE
    from tractor_cli import options
    assert options.TIMEOUT_RANGE == TIMEOUT_RANGE


def test_mutate_stages_are_the_analysis_stages():
    from conformance.analysis.mutation import STAGES
    from tractor_cli import cmd_mutate
    assert cmd_mutate.STAGES == STAGES


@pytest.mark.parametrize("option", ["--json", "--emit"])
def test_fingerprint_output_paths_are_checked_before_the_run(option, tmp_path, capsys):
    base = ["fingerprint", "--engine", ENGINE, "--ruleset", "r000"]
    assert "is a folder" in refused(base + [option, str(tmp_path)], capsys)
    assert "does not exist" in refused(base + [option, str(tmp_path / "missing" / "out.x")], capsys)
    assert not (tmp_path / "missing").exists()   # not made either


@pytest.mark.parametrize("argv", [["mutate", "r000", "--json"], ["impact", "r000", "r001", "--json"]])
def test_json_outputs_of_other_commands_are_checked_before_the_run(argv, tmp_path, capsys):
    assert "is a folder" in refused(argv + [str(tmp_path)], capsys)


@pytest.mark.parametrize("name", ["my rules", "观察", "9lives", "r001", "ruleset"])
def test_fingerprint_refuses_a_name_the_rule_language_cannot_hold(name, capsys):
    err = refused(["fingerprint", "--engine", ENGINE, "--ruleset", "r000", "--emit", "x.tractor", "--name", name],
                  capsys)
    assert "--name" in err


@pytest.mark.parametrize("file, expected", [
    ("观察.tractor", "observed"), ("my rules.tractor", "my_rules"), ("café.tractor", "cafe"),
    ("9lives.tractor", "r_9lives"), ("r001.tractor", "r001_observed"), ("dir/house.v2.tractor", "house"),
])
def test_fingerprint_makes_a_valid_name_from_any_file_name(file, expected):
    from tractor_cli.cmd_fingerprint import name_of_file, ruleset_name
    assert name_of_file(file) == expected
    assert ruleset_name(expected) == expected   # one the rule language and --name take


def test_a_made_name_is_said_before_the_run(tmp_path, capsys):
    """The name is settled and said before the engine starts (here an engine that does not exist)."""
    status = main(["fingerprint", "--engine", str(tmp_path / "no-engine"), "--ruleset", "r000",
                   "--emit", str(tmp_path / "观察.tractor")])
    err = capsys.readouterr().err
    assert "named observed" in err
    assert status == 2


@pytest.mark.parametrize("argv", [
    ["play", "r000", "--minutes", "-1"], ["play", "r000", "--minutes", "0"], ["play", "r000", "--max-hands", "-5"],
    ["play", "r000", "--games", "0"], ["impact", "r000", "r001", "--max-hands", "0"],
    ["impact", "r000", "r001", "--hands", "-1"], ["conform", "--engine", ENGINE, "--max-fail", "0"],
    ["conform", "--engine", ENGINE, "--window", "0"], ["conform", "--engine", ENGINE, "--timeout", "nan"],
])
def test_negative_and_zero_counts_are_refused(argv, capsys):
    err = refused(argv, capsys)
    assert argv[-2] in err or argv[-2] + " must" in err


def test_play_minutes_without_a_value_is_the_rulesets_limit():
    from tractor_cli.cmd_play import RULESET_MINUTES
    args = build_parser("play").parse_args(["play", "r003", "--minutes"])
    assert args.minutes == RULESET_MINUTES
    assert build_parser("play").parse_args(["play", "r003", "--minutes", "7"]).minutes == 7
