"""``dpsym account``, ``calibrate`` and ``compare``: methods, flags, output, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dpsym.cli import main


def _run(*args):
    return subprocess.run([sys.executable, "-m", "dpsym.cli", *args], capture_output=True,
                          text=True, timeout=300)


def _json(capsys, *args):
    assert main([*args, "--json", "--no-progress"]) == 0
    return json.loads(capsys.readouterr().out)


RUN = ["--sigma", "1", "--q", "0.01", "--steps", "1000"]


def test_account_rdp_json_and_opt_in_alternatives(capsys):
    obj = _json(capsys, "account", *RUN, "--delta", "1e-5", "--orders", "2:16", "--dps", "25")
    assert {"epsilon", "order", "conversion", "rdp", "method"} <= set(obj)
    assert obj["conversion"] == "balle2020" and obj["alternatives"] == {}
    assert len(obj["rdp"]) == 15 and len(obj["epsilon"].replace(".", "")) >= 20
    obj = _json(capsys, "account", *RUN, "--delta", "1e-5", "--orders", "2:16", "--compare")
    alt = obj["alternatives"]
    assert set(alt) == {"mironov2017", "asoodeh2021", "alc2021_lemma1", "best"}
    assert float(alt["asoodeh2021"]["epsilon"]) <= float(obj["epsilon"])
    # regression: the ALC line showed the optimal conversion's value
    assert alt["alc2021_lemma1"]["epsilon"] != alt["asoodeh2021"]["epsilon"]
    assert float(alt["alc2021_lemma1"]["epsilon"]) > float(alt["asoodeh2021"]["epsilon"])


def test_account_default_searches_real_alpha_for_eps_and_delta(capsys):
    grid = ["--orders", "1.5,2:64,128,256,512,1024"]
    e_real = _json(capsys, "account", *RUN, "--delta", "1e-5")
    e_grid = _json(capsys, "account", *RUN, "--delta", "1e-5", *grid)
    assert float(e_real["epsilon"]) < float(e_grid["epsilon"])
    assert float(e_real["order"]) != round(float(e_real["order"]))
    d_real = _json(capsys, "account", *RUN, "--eps", "2")
    d_grid = _json(capsys, "account", *RUN, "--eps", "2", *grid)
    assert float(d_real["delta"]) < float(d_grid["delta"])  # --eps is searched too


def test_account_pld_json_keys(capsys):
    obj = _json(capsys, "account", *RUN, "--delta", "1e-5", "--method", "pld")
    lo, hi = float(obj["epsilon_lower"]), float(obj["epsilon_upper"])
    assert lo <= hi <= lo + 1e-3 and obj["epsilon"] == obj["epsilon_upper"]
    assert lo <= 1.8282367 <= hi  # dp-accounting's PLD estimate (tests/reference)
    obj = _json(capsys, "account", "--sigma", "2", "--q", "0.01", "--steps", "100", "--eps",
                "0.5", "--method", "pld", "--width", "0.05")
    assert float(obj["delta_lower"]) <= float(obj["delta_upper"])


def test_account_phases_and_gdp(capsys):
    phases = ["--phase", "0.01,1,500", "--phase", "0.02,1.5,500"]
    rdp = _json(capsys, "account", *phases, "--delta", "1e-5")
    pld = _json(capsys, "account", *phases, "--delta", "1e-5", "--method", "pld",
                "--width", "0.01")
    assert float(pld["epsilon_upper"]) <= float(rdp["epsilon"])
    assert "phases" in pld["mechanism"]
    g = _json(capsys, "account", "--mu", "1", "--delta", "1e-5")
    assert g["epsilon"].startswith("4.37717809568122462765")  # rounded up at 30 digits
    clt = _json(capsys, "account", *RUN, "--delta", "1e-5", "--method", "gdp")
    assert clt["conversion"] == "gdp_clt" and clt["mechanism"]["certified"] == "False"


def test_account_aliases_and_epochs(capsys):
    a = _json(capsys, "account", "--noise-multiplier", "1", "--sample-rate", "0.01",
              "--epochs", "10", "--dataset-size", "60000", "--delta", "1e-5")
    b = _json(capsys, "account", *RUN, "--delta", "1e-5")
    assert a["epsilon"] == b["epsilon"] and a["mechanism"]["steps"] == "1000"


def test_account_text_states_sigma_convention(capsys):
    assert main(["account", "--sigma", "6", "--sampling", "fswor", "--batch-size", "120",
                 "--dataset-size", "50000", "--steps", "100", "--delta", "1e-5",
                 "--orders", "2:4"]) == 0
    out = capsys.readouterr().out
    assert "sigma convention:" in out and "2 z" in out


def test_account_fswor_replace_one_paper_setting(capsys):
    obj = _json(capsys, "account", "--sigma", "6", "--sampling", "fswor", "--adjacency",
                "replace-one", "--batch-size", "120", "--dataset-size", "50000",
                "--steps", "104000", "--delta", "1e-5", "--orders", "14:18", "--dps", "25")
    # Birrell et al. 2024, Thm 3.4 (m = 4), 250 epochs of 416 steps: eps(1e-5) = 1.1171.
    assert obj["epsilon"].startswith("1.11709") and obj["order"].startswith("16")
    for (a, up), (b, lo) in zip(obj["rdp"], obj["rdp_lower"], strict=True):
        assert a == b and lo is not None and float(lo) <= float(up)


def test_account_taylor_order_and_fswr_lower_bound(capsys):
    common = ["account", "--sigma", "6", "--batch-size", "120", "--dataset-size", "50000",
              "--delta", "1e-5", "--orders", "2,2.5,3", "--steps", "100000", "--dps", "25"]
    m3 = _json(capsys, *common, "--sampling", "fswor", "--taylor-order", "3")
    m4 = _json(capsys, *common, "--sampling", "fswor")
    # alpha = 2, 3: the expansion is exact from m = 3 on (Thm 3.2), so both agree there.
    assert m3["rdp"][0] == m4["rdp"][0]
    assert m3["rdp_lower"][1][1] is None  # no lower bound at a fractional order
    # FSwR (library layer): Thm 3.7 <= Thm 3.6.
    from dpsym.accounting import FixedSizeSampledGaussian

    ev = FixedSizeSampledGaussian(4, 50000, 6, steps=1000, replacement=True)
    for alpha in (2, 3, 5):
        assert 0 < ev.rdp_lower(alpha, dps=25) <= ev.rdp(alpha, dps=25)
    assert ev.rdp_lower("2.5", dps=25) is None


def test_account_poisson_from_sizes_and_replace_one_text(capsys):
    common = ["--sigma", "2", "--delta", "1e-5", "--orders", "2:4", "--steps", "10000"]
    a = _json(capsys, "account", *common, "--q", "0.01")
    b = _json(capsys, "account", *common, "--batch-size", "1", "--dataset-size", "100")
    assert a["epsilon"] == b["epsilon"]
    assert main(["account", *common, "--q", "0.01", "--adjacency", "replace-one"]) == 0
    out = capsys.readouterr().out
    assert "Thm C.9 (conservative" in out and "RDP lower bound: none known" in out


@pytest.mark.parametrize("args,needle", [
    (["--sigma", "1", "--q", "0.01", "--delta", "1e-5"], "--steps=None violates required"),
    ([*RUN, "--delta", "1e-5", "--method", "pld", "--orders", "2:4"],
     "--orders=2:4 violates used with --method rdp"),
    ([*RUN, "--delta", "1e-5", "--width", "0.1"], "--width=0.1 violates used with --method pld"),
    ([*RUN, "--delta", "1e-5", "--method", "gdp", "--taylor-order", "3"], "--taylor-order=3"),
    ([*RUN, "--delta", "1e-5", "--orders", "2:4", "--continuous"], "--continuous=True"),
    ([*RUN, "--delta", "1e-5", "--method", "gdp", "--compare"], "--compare=True"),
    (["--sigma", "1", "--q", "0.01", "--steps", "10", "--epochs", "1", "--delta", "1e-5"],
     "--epochs=1 violates not combined with --steps"),
    (["--phase", "0.01,1", "--delta", "1e-5"], "--phase=0.01,1 violates the form"),
    (["--sigma", "1", "--sampling", "fswor", "--batch-size", "2", "--dataset-size", "10",
      "--steps", "10", "--delta", "1e-5", "--method", "pld"], "dominating pair"),
    (["--sigma", "-1", "--q", "0.01", "--steps", "5", "--delta", "1e-5"], "sigma>0"),
])
def test_ignored_or_bad_flags_exit_2(args, needle, capsys):
    assert main(["account", *args, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert needle.replace("sigma>0", "sigma > 0") in err and len(err.strip().splitlines()) == 1


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
    assert main(["account", "--sigma", "1", "--delta", "1e-5", "--steps", "10", *args]) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1


def test_subprocess_bad_input_is_one_line():
    r = _run("account", "--mu", "1", "--sampling", "fswor", "--delta", "1e-5")
    assert r.returncode == 2 and "--mu=1 violates not combined with --sampling" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_calibrate_json(capsys):
    obj = _json(capsys, "calibrate", "--q", "0.01", "--steps", "1000", "--target-eps", "2",
                "--delta", "1e-5")
    assert obj["sigma"].startswith("1.023") and float(obj["epsilon"]) <= 2
    assert main(["calibrate", "--sigma", "1", "--q", "0.01", "--steps", "10", "--target-eps",
                 "2", "--delta", "1e-5"]) == 2


def test_compare_lists_every_method(capsys):
    obj = _json(capsys, "compare", "--sigma", "1", "--q", "0.01", "--steps", "200", "--delta",
                "1e-5", "--width", "0.01")
    methods = [r["method"] for r in obj["rows"]]
    assert methods[:3] == ["dpsym rdp (real alpha)", "dpsym pld", "dpsym gdp"]


def test_plot_writes_the_privacy_profile(tmp_path, capsys):
    out = tmp_path / "profile.png"
    assert main(["account", *RUN, "--delta", "1e-5", "--plot", str(out), "--no-progress"]) == 0
    assert out.stat().st_size > 10_000
