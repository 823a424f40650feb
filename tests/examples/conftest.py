"""The example engines configure themselves from an export of the ruleset they play (tractor export R)."""
import os

import pytest


def write_export(directory, ruleset: str):
    """``tractor export RULESET`` written to ``directory/RULESET.json``; its path."""
    from tractor_dsl.checker import load
    from tractor_dsl.export import export_json
    path = directory / f"{ruleset}.json"
    path.write_text(export_json(load().get(ruleset)), encoding="utf-8")
    return path


@pytest.fixture(scope="session", autouse=True)
def toy_export(tmp_path_factory):
    """The Python toy engine reads $TOY_ENGINE_EXPORT when given no argument: here, r003's export."""
    path = write_export(tmp_path_factory.mktemp("export"), "r003")
    old = os.environ.get("TOY_ENGINE_EXPORT")
    os.environ["TOY_ENGINE_EXPORT"] = str(path)
    yield path
    if old is None:
        os.environ.pop("TOY_ENGINE_EXPORT", None)
    else:
        os.environ["TOY_ENGINE_EXPORT"] = old
