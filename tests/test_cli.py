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
    assert "== summary" in out and "core: 9 claims" in out


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


def test_account_json(capsys):
    assert main(["account", "--sigma", "1", "--q", "0.01", "--steps", "1000", "--delta", "1e-5",
                 "--orders", "2:16", "--dps", "25", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert {"epsilon", "order", "conversion", "rdp"} <= set(obj)
    assert obj["conversion"] == "balle2020"
    assert len(obj["rdp"]) == 15 and all(len(p) == 2 for p in obj["rdp"])
    assert set(obj["alternatives"]) == {"mironov2017", "asoodeh2021", "alc2021_lemma1", "best"}
    assert float(obj["alternatives"]["asoodeh2021"]["epsilon"]) <= float(obj["epsilon"])
    assert len(obj["epsilon"].replace(".", "")) >= 20  # full precision decimal string


def test_account_delta_and_gdp(capsys):
    assert main(["account", "--mu", "1", "--delta", "1e-5", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["epsilon"].startswith("4.3771780956812246276")
    assert main(["account", "--sigma", "1", "--q", "0.01", "--steps", "100", "--eps", "1",
                 "--orders", "2:8"]) == 0
    assert "delta =" in capsys.readouterr().out


@pytest.mark.parametrize("args,needle", [
    (["account", "--sigma", "-1", "--q", "0.01", "--delta", "1e-5"], "sigma=-1 violates"),
    (["account", "--sigma", "1", "--q", "2", "--delta", "1e-5"], "q=2 violates"),
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


# --- fixed-size sampling and adjacency (Birrell et al. 2024) -------------------------------

def _account_json(capsys, *args):
    assert main(["account", *args, "--json", "--dps", "25"]) == 0
    return json.loads(capsys.readouterr().out)


def test_account_fswor_replace_one_paper_setting(capsys):
    obj = _account_json(capsys, "--sigma", "6", "--sampling", "fswor", "--adjacency",
                        "replace-one", "--batch-size", "120", "--dataset-size", "50000",
                        "--steps", "104000", "--delta", "1e-5", "--orders", "14:18")
    # Birrell et al. 2024, Thm 3.4 (m = 4), 250 epochs of 416 steps: eps(1e-5) = 1.1171.
    assert obj["epsilon"].startswith("1.11709") and obj["order"].startswith("16")
    m = obj["mechanism"]
    assert (m["sampling"], m["adjacency"], m["taylor_order"], m["q"]) == \
        ("fswor", "replace-one", "4", "3/1250")
    assert {"epsilon", "order", "conversion", "rdp", "alternatives", "rdp_lower"} <= set(obj)
    for (a, up), (b, lo) in zip(obj["rdp"], obj["rdp_lower"], strict=True):
        assert a == b and lo is not None and float(lo) <= float(up)


def test_account_taylor_order_and_fswr_lower_bound(capsys):
    common = ["--sigma", "6", "--batch-size", "120", "--dataset-size", "50000", "--delta",
              "1e-5", "--orders", "2,2.5,3", "--steps", "100000"]
    m3 = _account_json(capsys, *common, "--sampling", "fswor", "--taylor-order", "3")
    m4 = _account_json(capsys, *common, "--sampling", "fswor")
    # alpha = 2, 3: the expansion is exact from m = 3 on (Thm 3.2), so both agree there.
    assert m3["rdp"][0] == m4["rdp"][0]
    assert m3["rdp_lower"][1][1] is None  # no lower bound at a fractional order
    # FSwR (library layer: the CLI adds only the conversions): Thm 3.7 <= Thm 3.6.
    from dpsym.accounting import FixedSizeSampledGaussian

    ev = FixedSizeSampledGaussian(4, 50000, 6, steps=1000, replacement=True)
    for alpha in (2, 3, 5):
        assert 0 < ev.rdp_lower(alpha, dps=25) <= ev.rdp(alpha, dps=25)
    assert ev.rdp_lower("2.5", dps=25) is None


def test_account_poisson_from_sizes_and_text(capsys):
    a = _account_json(capsys, "--sigma", "2", "--q", "0.01", "--delta", "1e-5", "--orders",
                      "2:4", "--steps", "10000")
    b = _account_json(capsys, "--sigma", "2", "--batch-size", "1", "--dataset-size", "100",
                      "--delta", "1e-5", "--orders", "2:4", "--steps", "10000")
    assert a["epsilon"] == b["epsilon"]
    assert main(["account", "--sigma", "2", "--q", "0.01", "--adjacency", "replace-one",
                 "--delta", "1e-5", "--orders", "2:4", "--steps", "10000"]) == 0
    out = capsys.readouterr().out
    assert "Thm C.9 (conservative" in out and "RDP lower bound: none known" in out


@pytest.mark.parametrize("args,needle", [
    (["--sampling", "fswor", "--q", "0.01"], "--q=0.01 violates not used with --sampling fswor"),
    (["--sampling", "fswr", "--adjacency", "replace-one", "--batch-size", "2",
      "--dataset-size", "10"], "adjacency=replace-one violates add-remove"),
    (["--sampling", "fswor", "--batch-size", "2"], "--dataset-size=None violates required"),
    (["--sampling", "fswor", "--batch-size", "10", "--dataset-size", "10"],
     "batch_size=10 violates batch_size < dataset_size"),
    (["--sampling", "fswor", "--adjacency", "replace-one", "--batch-size", "2",
      "--dataset-size", "10", "--taylor-order", "2"], "m=2 violates m >= 3"),
    (["--sampling", "fswor", "--batch-size", "2.5", "--dataset-size", "10"],
     "--batch-size=2.5 violates an integer"),
])
def test_account_sampling_bad_input(args, needle, capsys):
    assert main(["account", "--sigma", "1", "--delta", "1e-5", *args]) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1


def test_account_mu_excludes_sampling_flags():
    r = _run("account", "--mu", "1", "--sampling", "fswor", "--delta", "1e-5")
    assert r.returncode == 2 and "--mu=1 violates not combined with --sampling" in r.stderr
