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
    # One small paper: tests/test_claims.py already runs every claim in-process.
    assert main(["verify", "--paper", "core", "--json", "--dps", "20"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows
    for r in rows:
        assert {"id", "paper", "ref", "kind", "printed", "value", "digits", "verdict",
                "severity"} <= set(r)
        assert r["paper"] == "core"


def test_verify_table_fits_100_columns(capsys):
    assert main(["verify", "--paper", "core", "--no-progress", "--dps", "20"]) == 0
    out = capsys.readouterr().out
    assert "core/balle2020=cks2020" in out and "[reproduced]" in out
    assert max(len(line) for line in out.splitlines()) <= 100
    from dpsym.claims import all_claims

    assert "== summary" in out and f"core: {len(all_claims('core'))} claims" in out


def test_verify_verdict_filter(capsys):
    assert main(["verify", "--paper", "core", "--no-progress", "--verdict", "erratum"]) == 0
    out = capsys.readouterr().out
    assert "core/" not in out.split("== summary")[0]
    assert "showing erratum" in out


def test_version_and_help():
    r = _run("--version")
    assert r.returncode == 0 and r.stdout.startswith("dpsym ")
    r = _run("--help")
    assert r.returncode == 0 and "``" not in r.stdout and ":func:" not in r.stdout


@pytest.mark.parametrize("cmd", ["verify", "figures", "reproduce"])
def test_unknown_paper_exits_2_and_lists_papers(cmd):
    r = _run(cmd, "--paper", "liang2099")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "covered papers: core, bok2024" in r.stderr


def test_reproduce_json_is_valid(tmp_path, capsys):
    assert main(["reproduce", "--paper", "core", "--json", "--out", str(tmp_path),
                 "--dps", "20"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert {c["id"] for c in obj["claims"]} >= {"core/balle2020=cks2020"}
    assert any(f.endswith("core_conversions.png") for f in obj["figures"])
    assert (tmp_path / "INDEX.md").read_text().count("](core_conversions.png)") == 1


def test_figures_writes_png_and_pdf(tmp_path, capsys):
    assert main(["figures", "--paper", "core", "--out", str(tmp_path), "--no-progress"]) == 0
    assert (tmp_path / "core_conversions.png").stat().st_size > 10_000
    assert (tmp_path / "core_conversions.pdf").stat().st_size > 5_000


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
