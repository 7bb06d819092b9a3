"""Shared fixtures: the command-line tool (for the Python-vs-CLI tests) and game sweeps."""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Every board and mode the core plays (half-open needs teams: four and six seats).
RULE_SETS = [
    ("two_player", "dark", None),
    ("two_player", "open", None),
    ("two_player", "flip", None),
    ("two_player", "dark", {"middle_crossing": "road", "landmine": "both_die"}),
    ("three_player", "dark", None),
    ("four_player", "dark", None),
    ("four_player", "half_open", None),
    ("four_player", "dark", {"teams": "none"}),
    ("four_player", "dark", {"preset": "qq"}),
    ("six_player", "dark", None),
    ("six_player", "half_open", {"teams": "opposite"}),
]


def _find_cli():
    if os.environ.get("JUNQI_BIN"):
        return os.environ["JUNQI_BIN"]
    dirs = [os.environ.get("CARGO_TARGET_DIR"), str(ROOT / "target")]
    for d in filter(None, dirs):
        for profile in ("release", "debug"):
            p = pathlib.Path(d) / profile / "junqi"
            if p.exists():
                return str(p)
    return shutil.which("junqi")


@pytest.fixture(scope="session")
def cli():
    """Run the `junqi` command-line tool: cli(args, input=None) -> stdout. Set JUNQI_BIN to
    choose the binary (scripts/test builds it); otherwise target/{release,debug}/junqi."""
    path = _find_cli()
    if path is None:
        pytest.fail("the junqi command-line tool was not found: build it (cargo build -p junqi) or set JUNQI_BIN")

    def run(args, input=None):
        r = subprocess.run([path, *args], input=input, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        return r.stdout

    return run
