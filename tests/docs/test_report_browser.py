"""The HTML conformance report in a real headless Chromium: opened as a file (no server), it fits a
390 px phone and a desktop, draws its failures with the site's cards, and is photographed into
``docs/_build/screenshots/`` (``report-desktop.png``, ``report-phone.png``).

Without a browser the test is reported as skipped, with the reason (see ``browser.py``)."""
from __future__ import annotations

import shlex
import sys

import pytest

from .browser import DESKTOP, PHONE, WIDTH_REPORT, launch, playwright_or_skip
from .conftest import REPO

SHOTS = REPO / "docs" / "_build" / "screenshots"
ENGINES = REPO / "tests" / "conformance" / "engines"


@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    """A report of two engines, one of them wrong on every illegal follow."""
    from conformance.reporting import matrix
    from conformance.analysis.attribution import attribute
    from conformance.generation.cases import generate
    from conformance.reporting.html_report import render
    cases = generate("r001", seed=3, counts=3, decisions=False)
    wrong = shlex.join([sys.executable, str(ENGINES / "wrong_answers.py")])
    reference = shlex.join([sys.executable, "-m", "tractor_cli.main", "engine"])
    results = matrix.run_engines([reference, wrong], cases, meta={"rulesets": ["r001"], "source": "generated",
                                                                  "seed": 3})
    for r in results:
        attribute(r)
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(render(matrix.build(results), results), encoding="utf-8")
    return path, sum(c["op"] == "follow" and not c["expected"]["legal"] for c in cases)


def test_the_html_report_fits_phone_and_desktop_and_draws_cards(report_file):
    path, failures = report_file
    assert failures > 0
    with playwright_or_skip() as pw:
        chromium = launch(pw)
        problems = []
        for viewport, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
            context = chromium.new_context(viewport=viewport, is_mobile=label == "phone",
                                           has_touch=label == "phone", device_scale_factor=1)
            page = context.new_page()
            # no request may leave the file: anything but the file itself is refused and noted
            outside = []
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                       else (outside.append(route.request.url), route.abort()))
            page.goto(path.as_uri(), wait_until="load")
            r = page.evaluate(WIDTH_REPORT)
            if r["scrollWidth"] > r["viewport"] or r["wide"]:
                problems.append(f"{label}: {r['scrollWidth']} px wide in {r['viewport']} px; too wide: {r['wide']}")
            assert not outside, outside
            assert page.locator("section .failure").count() == failures
            card = page.locator(".failure .tr-card").first
            assert card.is_visible()
            # the card style is inlined: a card is drawn with its border, as on the site
            assert page.evaluate("e => getComputedStyle(e).borderTopStyle", card.element_handle()) == "solid"
            assert page.locator("table.matrix").is_visible()
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"report-{label}.png"))
            page.locator(".failure").first.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"report-{label}-failure.png"))
            context.close()
        chromium.close()
    assert not problems, "\n".join(problems)
    for label in ("phone", "desktop"):
        assert (SHOTS / f"report-{label}.png").stat().st_size > 10_000
