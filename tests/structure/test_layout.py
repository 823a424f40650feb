"""The shape of the code: the packages pyproject.toml ships are every package of the repository, and the layers
import one way (grammar → model → checker → interpreter → conformance's roles in order → players → command line),
with no import circle between two modules."""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The layers, lowest first; a module may import from its own layer and the layers below it.
LAYERS = ["tractor_dsl", "reference_impl", "conformance.protocol", "conformance.running", "conformance.generation",
          "conformance.analysis", "conformance.reporting", "conformance.plan", "conformance.conform",
          "conformance.pytest_plugin", "tractor_play", "tractor_cli"]
SOURCES = ("tractor_dsl", "reference_impl", "conformance", "tractor_play", "tractor_cli")


def _modules() -> dict[str, Path]:
    out = {}
    for top in SOURCES:
        for f in (ROOT / top).rglob("*.py"):
            name = ".".join(f.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            out[name] = f
    return out


def _layer(module: str) -> int | None:
    found = None
    for i, layer in enumerate(LAYERS):
        if module == layer or module.startswith(layer + "."):
            found = i
    return found


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every module an import statement of ``path`` names (function-level imports too)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.module, node.lineno))
            out += [(f"{node.module}.{a.name}", node.lineno) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
    return out


def test_every_package_of_the_repository_is_shipped():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    mapped = {name: ROOT / folder for name, folder in config.get("package-dir", {}).items()}
    found = {".".join(f.parent.relative_to(ROOT).parts) for top in SOURCES for f in (ROOT / top).rglob("__init__.py")}
    found |= {name for name, folder in mapped.items() if (folder / "__init__.py").is_file()}
    assert found - listed == set(), "packages missing from pyproject.toml's [tool.setuptools] packages"
    assert listed - found == set(), "pyproject.toml lists packages that do not exist"
    generic = {"spec", "players", "parallel", "impact"}
    assert not generic & {p.split(".")[0] for p in listed}, "a generic top-level name would be installed"


def test_every_subpackage_says_in_its_first_line_what_lives_there():
    for init in (ROOT / "conformance").glob("*/__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and doc.splitlines()[0].strip(), f"{init.relative_to(ROOT)} has no one-line docstring"


def test_the_layers_import_one_way():
    against = []
    for name, path in _modules().items():
        mine = _layer(name)
        for target, line in _imports(path):
            theirs = _layer(target)
            if mine is not None and theirs is not None and theirs > mine:
                against.append(f"{path.relative_to(ROOT)}:{line} ({name}) imports {target}")
    assert against == []


def test_no_two_modules_import_each_other():
    modules = _modules()
    edges = {name: {t for t, _ in _imports(path) if t in modules and t != name} for name, path in modules.items()}
    circles = sorted({tuple(sorted((a, b))) for a, targets in edges.items() for b in targets if a in edges.get(b, ())})
    assert circles == []
