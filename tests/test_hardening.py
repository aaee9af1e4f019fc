"""Bad input gives one clear ValueError; work is bounded; files are never overwritten unasked.

Each case here was found by a fuzz harness (issue 15) and failed before its fix: it returned a
negative privacy value, raised a TypeError/OverflowError/ZeroDivisionError, named the wrong
parameter or statement, accepted bytes or a string as a sequence, or hung.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from dpsym import gdp_delta, gdp_epsilon, poisson_gaussian_rdp, rdp_to_delta, rdp_to_epsilon
from dpsym.cli import main
from dpsym.errors import MAX_DPS, HypothesisError, require_dps, require_integer, require_sequence
from dpsym.numerics import ncdf, precision, round_up, to_mpf


def _raises(fn, *names, match_ref=None):
    with pytest.raises(ValueError) as info:
        fn()
    msg = str(info.value)
    assert any(f"{n}=" in msg for n in names), msg
    if match_ref:
        assert match_ref in msg, msg
    return msg


# --- the validation layer --------------------------------------------------------------------

@pytest.mark.parametrize("bad", [True, b"1", 2 + 0j, None, [1], np.array([1.0]), "abc",
                                 float("nan"), float("inf"), np.complex128(1)])
def test_to_mpf_rejects_non_reals(bad):
    with pytest.raises(HypothesisError):
        to_mpf(bad, "x")


@pytest.mark.parametrize("good,value", [(np.float32(0.5), 0.5), (np.int64(3), 3),
                                        (Fraction(1, 4), 0.25), ("1e-5", 1e-5)])
def test_to_mpf_accepts_numpy_scalars_and_exact_types(good, value):
    with precision(30):
        assert abs(to_mpf(good) / value - 1) < 1e-15


def test_require_integer_caps_and_forms():
    assert require_integer("n", "1e12", "r") == 10**12
    assert require_integer("n", np.int64(7), "r") == 7
    assert require_integer("n", 5.0, "r") == 5
    for bad in (10**18, 1e300, "1.5", 2.5, True, "inf"):
        with pytest.raises(HypothesisError):
            require_integer("n", bad, "r")
    assert require_integer("n", 10**18, "r", maximum=None) == 10**18


@pytest.mark.parametrize("bad", ["248", b"12", (x for x in [2]), 3, None, {2: 1}, {2}])
def test_require_sequence_rejects_strings_generators_scalars(bad):
    with pytest.raises(HypothesisError, match="orders="):
        require_sequence("orders", bad, "r")


@pytest.mark.parametrize("dps", [0, -1, 4, True, 100000, 2000, MAX_DPS + 1, "30", None, 5.5])
def test_dps_outside_5_1000_is_rejected_everywhere(dps):
    from dpsym.papers import bok2024

    with pytest.raises(HypothesisError, match="dps"):
        gdp_delta(1, 1, dps=dps)
    with pytest.raises(HypothesisError, match="dps"):
        rdp_to_epsilon([2], [1], "1e-5", dps=dps)
    if dps != MAX_DPS + 1:  # a statement's outermost precision allows a few guard digits
        with pytest.raises(HypothesisError, match="dps"):
            bok2024.cor_5_2(1, 1, dps=dps)
    with pytest.raises(HypothesisError, match="dps"):
        require_dps(dps)


def test_dps_numpy_integer_accepted():
    assert gdp_delta(1, 1, dps=np.int64(20)) > 0


def test_round_up_checks_dps():
    with pytest.raises(HypothesisError, match="dps"):
        round_up(to_mpf(1), 0)


# --- the concrete cases of the issue ---------------------------------------------------------

def test_gdp_extreme_arguments_no_overflow():
    assert gdp_delta("1e-160", 1) >= 0  # was OverflowError
    assert 0 <= gdp_delta(1, 1e308) < 1e-300
    assert gdp_delta(1e308, 1) <= 1
    assert gdp_epsilon(1e40, "1e-5") > 0
    with precision(30):
        assert ncdf(to_mpf("-1e200")) > 0 and ncdf(to_mpf("1e200")) == 1


def test_negative_privacy_values_rejected():
    from dpsym.papers import birrell2024, bok2024, bravo2025

    _raises(lambda: bok2024.cor_5_2(-1, 1), "L")
    _raises(lambda: bok2024.prop_5_1(-1, 1, "0.05", 10), "L")
    _raises(lambda: birrell2024.thm_3_6(4, 6, 10, 1000, T=-1), "T")
    _raises(lambda: bravo2025.thm_5_4_alpha_star(L=1, n=100, b=1000, sigma=10), "b",
            match_ref="Thm 5.4")


def test_prop_5_1_tiny_m_is_computed_not_divided_by_zero():
    from dpsym.papers import bok2024

    mu = bok2024.prop_5_1(1, 1e-320, "0.05", 10, dps=20)
    assert abs(mu / 1e160 - 1) < 1e-5  # mu -> L/sqrt(m) as m -> 0


def test_exact_rational_inputs_reject_inf():
    from dpsym.papers import bok2024

    _raises(lambda: bok2024.thm_4_3("0.25", float("inf"), 3, "0.04", 1, 10, 100), "n")
    _raises(lambda: bok2024.thm_4_6("0.25", float("inf"), 3, "0.04", 1, 10, 100), "b")


@pytest.mark.parametrize("orders", [None, 2, (x for x in [2]), "248"])
def test_sequences_are_sequences(orders):
    _raises(lambda: rdp_to_epsilon(orders, [1], "1e-5"), "orders")
    _raises(lambda: rdp_to_delta(orders, [1], "1"), "orders")


def test_string_rdp_is_not_iterated():
    _raises(lambda: rdp_to_epsilon([2, 4, 8], "123", "1e-5"), "rdp")


def test_bytes_are_not_numbers():
    _raises(lambda: poisson_gaussian_rdp(b"1", 1, 2), "q")
    _raises(lambda: gdp_delta(b"1", 1), "mu")


def test_lem_a_17_validates_before_its_cache():
    from dpsym.papers import bravo2025

    _raises(lambda: bravo2025.lem_a_17(2, "0.01", 1, r=True), "r")
    _raises(lambda: bravo2025.lem_a_17([2], "0.01", 1), "alpha")
    _raises(lambda: bravo2025.lem_a_17(2 + 0j, "0.01", 1), "alpha")
    assert bravo2025.lem_a_17(2, "0.01", 1) == bravo2025.lem_a_17(2, "0.01", 1)


def test_eq_127_integer_orders_only():
    from dpsym.papers import birrell2024

    _raises(lambda: birrell2024.eq_127(2.5, 6, "0.1"), "alpha", match_ref="eq. (127)")
    assert birrell2024.eq_127(3, 6, "0.1") > 0


def test_errors_name_the_right_parameter_and_statement():
    from dpsym.papers import birrell2024, bok2024

    msg = _raises(lambda: bok2024.thm_4_4(1, -1, 1, 5), "b")
    assert "Thm 4.4" in msg and "n=" not in msg
    _raises(lambda: birrell2024.thm_3_5("0.5", 6, "0.01"), "alpha", match_ref="Thm 3.5")


def test_huge_orders_and_taylor_orders_are_capped_fast():
    import time

    from dpsym.rdp.taylor import fswor_add_remove_rdp

    t0 = time.perf_counter()
    _raises(lambda: poisson_gaussian_rdp("0.01", 1, 1e308), "alpha")
    _raises(lambda: poisson_gaussian_rdp("0.01", 1, 1e308, method="quad"), "alpha")
    _raises(lambda: fswor_add_remove_rdp(2, 1, "0.01", 10**18), "m")
    assert time.perf_counter() - t0 < 5


def test_tran2022_positive_symbols():
    from dpsym.papers import tran2022

    _raises(lambda: tran2022.lem_11(-1, "0.01", "1e-9", 100, 0), "G")


# --- the command line ------------------------------------------------------------------------

def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "dpsym.cli", *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd)


@pytest.mark.parametrize("args,flag", [
    (["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "-1e-5"], "delta"),
    (["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-5",
      "--orders", "1:2:3"], "--orders"),
    (["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-5",
      "--orders", "2:100000"], "1000"),
    (["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-5",
      "--orders", "1e9"], "100000"),
    (["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-5",
      "--dps", "100000"], "1000"),
    (["verify", "--dps", "100000"], "1000"),
    (["account", "--sigma", "1"], "--delta"),
    (["nosuchcommand"], "invalid choice"),
])
def test_cli_errors_are_one_line_exit_2(args, flag):
    r = _cli(*args)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0] and "Traceback" not in r.stderr, r.stderr


def test_cli_integer_steps_in_exponent_form(capsys):
    assert main(["account", "--sigma", "1", "--q", "0.01", "--steps", "1e3", "--delta", "1e-5",
                 "--orders", "2:8"]) == 0


def test_cli_q_equal_1_has_an_exact_lower_bound(capsys):
    assert main(["account", "--sigma", "1", "--q", "1", "--steps", "10", "--delta", "1e-5",
                 "--orders", "2,4"]) == 0
    out = capsys.readouterr().out
    assert "worst case >=" in out


def test_cli_internal_error_is_one_line_with_debug_hint(monkeypatch, capsys):
    import dpsym.cli.account as acc

    def boom(args):
        raise KeyError("x")

    monkeypatch.setattr(acc, "cmd_account", boom)
    assert main(["account", "--mu", "1", "--delta", "1e-5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--debug" in err[0]
    with pytest.raises(KeyError):
        main(["--debug", "account", "--mu", "1", "--delta", "1e-5"])


def test_cli_overflow_is_one_line(monkeypatch, capsys):
    import dpsym.cli.account as acc

    def boom(args):
        raise OverflowError("int too large to convert to float")

    monkeypatch.setattr(acc, "cmd_account", boom)
    assert main(["account", "--mu", "1", "--delta", "1e-5"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


# --- files -----------------------------------------------------------------------------------

@pytest.fixture
def cheap_figures(monkeypatch):
    """One small registered-looking figure instead of the paper's (the rules, not the art)."""
    import matplotlib

    matplotlib.use("Agg")
    import dpsym.figures as F  # noqa: N812 - short, local to the fixture

    def tiny():
        fig, ax = F.new_figure()
        x = np.linspace(0, 1, 200)
        ax.plot(x, x * x, label="x^2")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        return fig

    tiny.__wrapped__ = tiny
    spec = F.FigureSpec("core", "hardening_tiny", "a tiny test figure", tiny)
    monkeypatch.setattr(F, "all_figures", lambda paper=None: [spec])
    return "core_hardening_tiny"


def test_figures_never_overwrite_differing_or_read_only_files(tmp_path, capsys,
                                                             cheap_figures):
    out = tmp_path / "figs"
    out.mkdir()
    assert main(["figures", "--paper", "core", "--out", str(out), "--no-progress"]) == 0
    png = out / f"{cheap_figures}.png"
    assert "wrote" in capsys.readouterr().out
    # a second run writes nothing: identical bytes are left alone
    assert main(["figures", "--paper", "core", "--out", str(out), "--no-progress"]) == 0
    assert "wrote" not in capsys.readouterr().out
    # a user's differing file is refused without --force ...
    png.write_bytes(b"the user's own picture")
    assert main(["figures", "--paper", "core", "--out", str(out), "--no-progress"]) == 2
    assert png.read_bytes() == b"the user's own picture"
    assert "--force" in capsys.readouterr().err
    # ... and replaced with it
    assert main(["figures", "--paper", "core", "--out", str(out), "--no-progress",
                 "--force"]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    # a read-only file is never touched, even with --force
    png.write_bytes(b"mine")
    os.chmod(png, stat.S_IRUSR)
    try:
        assert main(["figures", "--paper", "core", "--out", str(out), "--no-progress",
                     "--force"]) == 2
        assert png.read_bytes() == b"mine"
    finally:
        os.chmod(png, stat.S_IRUSR | stat.S_IWUSR)


def test_figures_do_not_create_missing_parents(tmp_path, capsys, cheap_figures):
    target = tmp_path / "missing" / "dir"
    assert main(["figures", "--paper", "core", "--out", str(target), "--no-progress"]) == 2
    assert not (tmp_path / "missing").exists()
    assert main(["figures", "--paper", "core", "--out", str(tmp_path / "new"),
                 "--no-progress"]) == 0  # the last component alone is created


def test_figures_out_is_a_file(tmp_path, cheap_figures):
    f = tmp_path / "a_file"
    f.write_text("x")
    assert main(["figures", "--paper", "core", "--out", str(f), "--no-progress"]) == 2
    assert main(["figures", "--paper", "core", "--out", str(f / "sub"), "--no-progress"]) == 2
    assert f.read_text() == "x"


def test_figures_without_out_outside_the_checkout_requires_out(tmp_path):
    r = _cli("figures", "--paper", "core", "--no-progress", cwd=tmp_path)
    assert r.returncode == 2 and "--out" in r.stderr
    assert not (tmp_path / "figures").exists()


def test_default_out_is_the_checkouts_figures():
    from dpsym.cli.ledger import default_out

    root = Path(__file__).resolve().parents[1]
    cwd = os.getcwd()
    try:
        os.chdir(root)
        assert default_out() == root / "figures"
    finally:
        os.chdir(cwd)


def test_thm_5_4_window_never_loops_on_tiny_eta_beta():
    import time

    from dpsym.papers import bravo2025

    t0 = time.perf_counter()
    _raises(lambda: bravo2025.thm_5_4_tbar_min("0.1", 1e-320), "eta")  # was an endless loop
    assert bravo2025.thm_5_4_tbar_min("0.1", 1) == 4
    assert time.perf_counter() - t0 < 5


def test_more_fuzz_findings():
    from dpsym.papers import birrell2024, bok2024, tran2022

    _raises(lambda: birrell2024.lem_c_4(0, 3, "0.5"), "sigma")
    _raises(lambda: birrell2024.lem_c_4(1, 10**18, "0.5"), "k")
    _raises(lambda: birrell2024.eq_126_as_printed(2, 6, 120, -1, index_sets="figure9"), "N")
    _raises(lambda: tran2022.lem_5(1, "0.1", 0, 2, "0.5"), "T")
    _raises(lambda: tran2022.prop_16("abc", 3), "gamma")
    _raises(lambda: bok2024.thm_4_6("0.25", -1, 3, "0.04", 1, 10, 100), "b")
    _raises(lambda: bok2024.thm_4_6("0.25", 1e308, 3, "0.04", 1, 10, 100), "E")  # not Overflow
    _raises(lambda: bok2024.thm_4_2(-1, 1, 1, "0.05", 1, 10, 100), "L", match_ref="Thm 4.2")
    assert bok2024.thm_4_6(np.int64(3), 1, 3, "0.04", 1, 10, 100) == bok2024.thm_4_6(
        3, 1, 3, "0.04", 1, 10, 100)
    _raises(lambda: gdp_epsilon(1e308, "1e-5"), "mu")
