import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionstart(session):
    session.config._tractor_started = __import__("time").time()


def pytest_terminal_summary(terminalreporter, config):
    """Say where the browser tests (tests/docs/test_browser.py) wrote this run's screenshots."""
    from pathlib import Path
    shots = Path(__file__).resolve().parents[1] / "docs" / "_build" / "screenshots"
    started = getattr(config, "_tractor_started", 0)
    new = sorted(p.name for p in shots.glob("*") if p.stat().st_mtime >= started) if shots.is_dir() else []
    if new:
        terminalreporter.write_line(f"screenshots and print previews written to {shots}: {', '.join(new)}")
