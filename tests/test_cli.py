"""The dpsym command: verify, figures, account, and bad input."""

import json
import subprocess
import sys

import pytest

from dpsym.cli import main


def _run(*args):
    return subprocess.run([sys.executable, "-m", "dpsym.cli", *args], capture_output=True,
                          text=True, timeout=300)


def test_verify_json(capsys):
    assert main(["verify", "--paper", "bok2024", "--json", "--dps", "20"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows
    for r in rows:
        assert {"id", "paper", "ref", "kind", "printed", "value", "digits", "verdict"} <= set(r)
        assert r["paper"] == "bok2024"


def test_verify_table(capsys):
    assert main(["verify", "--paper", "core", "--no-progress", "--dps", "20"]) == 0
    out = capsys.readouterr().out
    assert "core/balle2020=cks2020" in out and "reproduced" in out


def test_figures_writes_png_and_pdf(tmp_path, capsys):
    assert main(["figures", "--paper", "bok2024", "--out", str(tmp_path), "--no-progress"]) == 0
    assert (tmp_path / "bok2024_figure_2.png").stat().st_size > 10_000
    assert (tmp_path / "bok2024_figure_2.pdf").stat().st_size > 5_000


@pytest.mark.parametrize("args,needle", [
    (["account", "--sigma", "-1", "--q", "0.01", "--steps", "5", "--delta", "1e-5"],
     "sigma=-1 violates"),
    (["account", "--sigma", "1", "--q", "2", "--steps", "5", "--delta", "1e-5"],
     "q=2 violates"),
    (["account", "--sigma", "1", "--q", "0.1", "--steps", "1.5", "--delta", "1e-5"],
     "--steps=1.5"),
    (["account", "--mu", "1", "--delta", "0"], "delta=0 violates"),
    (["account", "--sigma", "1", "--delta", "1e-5"], "--q"),
])
def test_bad_input_one_line_exit_2(args, needle):
    r = _run(*args)
    assert r.returncode == 2
    assert needle in r.stderr
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
