"""Events and accountants (dpsym.accounting): data, composition, results, peers, bugs."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from mpmath import mp, mpf

from dpsym.accounting import (
    DP_ACCOUNTING_ORDERS,
    OPACUS_ORDERS,
    ComposedEvent,
    FixedSizeSampledEvent,
    GaussianEvent,
    GdpAccountant,
    PldAccountant,
    PoissonSampledEvent,
    RdpAccountant,
    SelfComposedEvent,
    flatten,
)
from dpsym.rdp import poisson_gaussian_rdp
from dpsym.rdp.conversions import epsilon_from_rdp, rdp_to_epsilon

PEERS = json.loads((Path(__file__).parent / "reference" / "peer_accounting.json").read_text())


def _step(q="0.01", s=1):
    return PoissonSampledEvent(q, GaussianEvent(s))


# --- events ---------------------------------------------------------------------------------


def test_events_are_exact_frozen_hashable_data():
    a = PoissonSampledEvent(0.5, GaussianEvent(np.float64(1.5)))
    b = PoissonSampledEvent(Fraction(1, 2), GaussianEvent("1.5"))
    assert a == b and hash(a) == hash(b)
    assert a.sampling_probability == Fraction(1, 2)
    with pytest.raises(AttributeError):
        a.sampling_probability = Fraction(1, 3)  # frozen
    ev = FixedSizeSampledEvent(np.int64(60000), np.int64(256), GaussianEvent(1))
    assert ev.q == Fraction(256, 60000) and ev.dataset_size == 60000
    with pytest.raises(ValueError, match="batch_size < dataset_size"):
        FixedSizeSampledEvent(10, 10, GaussianEvent(1))
    with pytest.raises(ValueError, match="sigma > 0"):
        GaussianEvent(0)


def test_flatten_merges_counts():
    e = ComposedEvent((SelfComposedEvent(_step(), 3), _step(), SelfComposedEvent(_step("0.02"), 2)))
    assert flatten(e, 2) == [(_step(), 8), (_step("0.02"), 4)]


# --- RDP ------------------------------------------------------------------------------------


def test_rdp_training_loop_equals_one_composition():
    loop = RdpAccountant()
    for _ in range(50):
        loop.compose(_step())
    once = RdpAccountant().compose(_step(), 50)
    assert loop.get_epsilon("1e-5").value == once.get_epsilon("1e-5").value


@pytest.mark.parametrize("name,q,sigma,steps", [
    ("q=0.01,sigma=1,T=1000", "0.01", "1", 1000),
    ("q=0.04,sigma=1.5,T=2250", "0.04", "1.5", 2250),
    ("q=256/60000,sigma=1.1,T=14063", Fraction(256, 60000), "1.1", 14063),
])
def test_rdp_eps_not_above_the_peers_grids(name, q, sigma, steps):
    rep = RdpAccountant().compose(_step(q, sigma), steps).get_epsilon("1e-5")
    peers = [float(r["epsilon"]) for r in PEERS["records"]
             if r["setting"] == name and r["what"] == "rdp"]
    assert len(peers) == 2 and rep.value <= min(peers)
    # and it is the certified value at its (real) order: recompute independently
    r = poisson_gaussian_rdp(q, sigma, rep.order, steps=steps, dps=30)
    assert epsilon_from_rdp(rep.order, r, "1e-5", dps=30) == rep.value
    # the grids' own best, by the same certified RDP, is not smaller
    for grid in (OPACUS_ORDERS, DP_ACCOUNTING_ORDERS):
        g = [poisson_gaussian_rdp(q, sigma, a, steps=steps, dps=30) for a in grid]
        assert rdp_to_epsilon(grid, g, "1e-5", dps=30)[0] >= rep.value


def test_compare_is_opt_in_and_the_optimal_conversion_runs_once(monkeypatch):
    import dpsym.rdp.conversions as conv

    acc = RdpAccountant().compose(_step(), 100)
    calls = {"n": 0}
    real = conv._optimal_epsilon

    def counting(*a):
        calls["n"] += 1
        return real(*a)

    monkeypatch.setattr(conv, "_optimal_epsilon", counting)
    rep = acc.get_epsilon("1e-5")
    assert rep.alternatives == {} and calls["n"] == 0
    rep = acc.get_epsilon("1e-5", compare=True)
    assert set(rep.alternatives) == {"mironov2017", "asoodeh2021", "alc2021_lemma1", "best"}
    n_once = calls["n"]
    # the local search visits each order at most once: no more calls than grid orders
    assert 0 < n_once <= len(acc.default_orders())
    assert rep.alternatives["best"][0] <= rep.value


def test_alc_conversion_over_orders_is_not_the_optimal_one():
    # Regression: rdp_to_epsilon(..., "alc2021_lemma1") over several orders returned the
    # asoodeh2021 value.  The ALC eps over orders is the minimum of its per-order values.
    orders, rdp = [2, 4, 8, 16], ["0.05", "0.1", "0.2", "0.45"]
    alc = rdp_to_epsilon(orders, rdp, "1e-5", conversion="alc2021_lemma1", dps=25)[0]
    per = min(epsilon_from_rdp(a, r, "1e-5", "alc2021_lemma1", dps=25)
              for a, r in zip(orders, rdp, strict=True))
    opt = rdp_to_epsilon(orders, rdp, "1e-5", conversion="asoodeh2021", dps=25)[0]
    assert alc == per and alc > opt


def test_replace_one_default_is_the_sound_variant():
    from dpsym.rdp.taylor import poisson_replace_one_rdp

    d = poisson_replace_one_rdp(8, 6, "0.0024", 4, dps=20)
    c = poisson_replace_one_rdp(8, 6, "0.0024", 4, variant="conservative", dps=20)
    p = poisson_replace_one_rdp(8, 6, "0.0024", 4, variant="paper", dps=20)
    assert d == c and p < c


def test_fixed_size_and_replace_one_use_birrell_bounds():
    acc = RdpAccountant("replace-one").compose(
        FixedSizeSampledEvent(50000, 120, GaussianEvent(6)), 104000)
    acc.orders = list(range(14, 19))
    rep = acc.get_epsilon("1e-5", lower=True)
    # Birrell et al. 2024, Thm 3.4 (m = 4), 250 epochs: eps(1e-5) = 1.1171 (paper, Table 2)
    assert str(rep.value).startswith("1.11709")
    assert all(lo is not None and lo <= up for (_, up), (_, lo) in
               zip(rep.rdp, rep.rdp_lower, strict=True))


# --- PLD and GDP ----------------------------------------------------------------------------


def test_pld_accountant_interval_and_conversions():
    acc = PldAccountant(width=1e-2).compose(_step(), 1000)
    iv = acc.get_epsilon("1e-5")
    rdp = RdpAccountant().compose(_step(), 1000).get_epsilon("1e-5")
    assert iv.lower <= float(iv) == float(iv.upper) <= rdp.value
    assert format(iv, ".2f") == f"{float(iv.upper):.2f}"
    obj = json.loads(json.dumps(iv.to_dict()))
    assert float(obj["epsilon_lower"]) <= float(obj["epsilon_upper"])
    with pytest.raises(ValueError, match="dominating"):
        PldAccountant().compose(FixedSizeSampledEvent(100, 10, GaussianEvent(1)))
    assert not PldAccountant().supports(FixedSizeSampledEvent(100, 10, GaussianEvent(1)))


def test_gdp_accountant_exact_and_clt():
    from dpsym.fdp import gdp_epsilon

    full = GdpAccountant().compose(GaussianEvent(2), 4)  # mu = sqrt(4) / 2 = 1
    rep = full.get_epsilon("1e-5")
    assert rep.conversion == "gdp_exact" and rep.value == gdp_epsilon(1, "1e-5", dps=30)
    clt = GdpAccountant().compose(_step(), 1000).get_epsilon("1e-5")
    assert clt.conversion == "gdp_clt" and clt.mechanism["certified"] == "False"
    assert float(clt) == pytest.approx(1.6177, abs=1e-3)  # mu = 0.01 sqrt(1000 (e - 1))


def test_results_convert_cleanly():
    rep = RdpAccountant().compose(_step(), 10).get_epsilon("1e-5")
    assert isinstance(float(rep), float) and f"{rep:.3f}" == f"{float(rep.value):.3f}"
    obj = json.loads(json.dumps(rep.to_dict()))
    with mp.workdps(60):  # printed rounded up: still an upper bound, 30 digits
        assert rep.value <= mpf(obj["epsilon"]) <= rep.value * (1 + mpf(10) ** -29)


def test_dp_accounting_adapter():
    dpa = pytest.importorskip("dp_accounting")
    from dpsym.accounting import from_dp_accounting

    ev = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.0)), 10)
    assert from_dp_accounting(ev) == SelfComposedEvent(PoissonSampledEvent(0.01,
                                                                           GaussianEvent(1.0)), 10)


def test_import_dpsym_is_light():
    code = ("import time, sys; t = time.process_time(); import dpsym; "
            "print(time.process_time() - t, 'sympy' in sys.modules, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert float(out[0]) <= 0.15 and out[1:] == ["False", "False"]


def test_require_integer_accepts_numpy_integers():
    from dpsym.errors import require_integer

    assert require_integer("n", np.int64(7), "ref") == 7
    assert require_integer("n", np.uint8(3), "ref", minimum=1) == 3
    with pytest.raises(ValueError, match="an integer"):
        require_integer("n", np.float64(2.5), "ref")


def test_crosscheck_extra_is_installable_with_the_constraints():
    # dp-accounting 0.6.0 declares attrs<24,>=22; the constraints pinned attrs==26.1.0.
    pins = dict(line.split("==") for line in
                (Path(__file__).parents[1] / "requirements" / "constraints.txt").read_text()
                .split() if "==" in line)
    major = int(pins["attrs"].split(".")[0])
    assert 22 <= major < 24
    assert pins["python-flint"] == "0.9.0"
