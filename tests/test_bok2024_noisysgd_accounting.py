"""Prop. D.4, footnote 13, and certified composition of the NoisySGD bounds (App. D.5)."""

import mpmath
import numpy as np
import pytest
import sympy as sp
from mpmath import mpf

from dpsym.fdp import Gaussian, clt_mu, gdp_epsilon
from dpsym.fdp.duality import delta_of_tradeoff
from dpsym.fdp.subsampling import SubsampledGaussian
from dpsym.numerics import Phi, precision
from dpsym.papers.bok2024 import noisysgd as paper
from dpsym.papers.bok2024 import noisysgd_accounting as acc


def test_prop_d_4_prv_condition_symbolic():
    d = acc.prop_d_4_symbolic()
    assert d.holds
    assert "F_Y(oo) = 1" in d.notes and "F_Y(-oo) = 0" in d.notes


@pytest.mark.parametrize("eps", ["-0.6", "-0.1", "0.3", "1.2", "3"])
def test_prop_d_4_delta_matches_the_closed_form_curve(eps):
    """delta from the printed F_Y (quadrature) = sup_x (1 - e^eps x - C_p(G(mu))(x))."""
    a = acc.prop_d_4_delta(eps, "0.25", "2.5", dps=30)
    with precision(30):
        b = delta_of_tradeoff(SubsampledGaussian("0.25", "2.5"), eps)
        assert abs(a - b) < 1e-22


def test_prop_d_4_mutation_is_caught():
    """A CDF with mu/2 signs swapped in the t > 0 branch gives a different delta."""
    with precision(30):
        p, m = mpf("0.25"), mpf("2.5")
        good = acc.prop_d_4("0.7", p, m, dps=30)
        a = mpmath.log((p - 1 + mpmath.exp(mpf("0.7"))) / p) / m
        wrong = p * Phi(a + m / 2) + (1 - p) * Phi(a - m / 2)
        assert abs(good - wrong) > 1e-2


def test_prop_d_4_atom_and_left_continuity():
    with precision(30):
        atom = acc.prop_d_4_atom("0.25", "2.5", dps=30)
        assert abs(atom - mpf("0.75") * (Phi(mpf("1.25")) - Phi(mpf("-1.25")))) < 1e-25
        # as printed, F_Y(0) = Phi(-mu/2) = P(Y < 0): the atom is not in F_Y(0)
        assert abs(acc.prop_d_4(0, "0.25", "2.5", dps=30) - Phi(mpf("-1.25"))) < 1e-25


def test_prop_d_4_rejects():
    with pytest.raises(ValueError, match="p=0 violates 0 < p <= 1"):
        acc.prop_d_4(1, 0, 1)
    with pytest.raises(ValueError, match="mu=0 violates mu > 0"):
        acc.prop_d_4(1, "0.5", 0)


def test_footnote_13():
    r = acc.footnote_13_clt()
    mu = sp.Symbol("mu", positive=True)
    assert sp.simplify(r.one_sided - (sp.exp(mu**2) - 1)) == 0          # [BDLS20]
    lead = sp.series(r.difference_series, mu, 0, 4).removeO()
    assert sp.simplify(lead - sp.sqrt(2 / sp.pi) * mu**3) == 0            # they differ


def test_composition_at_p_one_is_gaussian():
    """At p = 1, C_1(G(mu))^{(x)t} = G(mu sqrt t) and Lemma A.3 is exact."""
    f = paper.thm_4_8(L=3, b=10, n=10, sigma=1, t=16)          # mu = 0.3, p = 1
    iv = acc.noisysgd_epsilon_interval(f, "1e-5", width=2e-2)
    exact = gdp_epsilon("1.2", "1e-5", dps=20)
    assert iv.lower <= float(exact) <= iv.upper and iv.width <= 2e-2


def test_composition_with_a_gdp_factor():
    """G(b) (x) C_1(G(a))^{(x)k} = G(sqrt(b^2 + k a^2)): the heterogeneous path."""
    f = paper.NoisySGDTradeoff(mpf(1), mpf("0.5"), ((mpf("0.3"), 16),), "test")
    iv = acc.noisysgd_epsilon_interval(f, "1e-5", width=2e-2)
    exact = gdp_epsilon("1.3", "1e-5", dps=20)
    assert iv.lower <= float(exact) <= iv.upper


def test_tradeoff_interval_curve_at_p_one():
    f = paper.thm_4_8(L=3, b=10, n=10, sigma=1, t=16)
    x = np.linspace(0, 1, 21)
    lo, hi = acc.noisysgd_tradeoff_interval(f, x)
    exact = Gaussian("1.2").vectorized(x)
    assert np.all(lo <= exact + 1e-12) and np.all(exact <= hi + 1e-12)
    assert np.max(hi - lo) < 2e-2


def test_clt_is_not_the_composition_for_table_4():
    """The CLT eps for Table 4's NoisySGD setting at E = 50 lies above the certified interval
    (App. D.5: the CLT is not enough to certify a budget)."""
    f = paper.thm_4_8(L=10, b=1500, n=60000, sigma="0.01", t=2000)
    iv = acc.noisysgd_epsilon_interval(f, "1e-5", width=1e-2)
    assert iv.lower <= 4.44 <= iv.upper
    clt = gdp_epsilon(clt_mu(mpf(1) / 40, mpf(2) / 3, 2000, dps=20), "1e-5", dps=20)
    assert float(clt) > iv.upper


def _peer_records():
    import json
    from pathlib import Path

    doc = json.loads((Path(__file__).parent / "reference" / "peer_cp_gaussian.json").read_text())
    return doc, {s["name"]: s for s in doc["settings"]}


def test_peer_reference_file_is_documented():
    doc, settings = _peer_records()
    assert doc["libraries"]["prv-accountant"] == "0.2.0"
    assert doc["libraries"]["dp-accounting"] == "0.6.0"
    assert all("call" in r and "cpu_seconds" in r for r in doc["records"])
    assert "table4,E=200" in settings


@pytest.mark.parametrize("name", ["table4,E=50", "thm4.9,p=0.05,mu=0.5,c=0.9,k=30",
                                  "p=1,mu=0.3,t=16"])
def test_certified_interval_contains_the_peers(name):
    """dpsym's certified eps interval contains prv-accountant's estimate (eps_error 1e-3)
    and lies inside dp-accounting's optimistic/pessimistic bracket (vdi 1e-4)."""
    doc, settings = _peer_records()
    s = settings[name]
    f = paper.NoisySGDTradeoff(mpf(s["p"]), mpf(s["gdp"]),
                               tuple((mpf(m), k) for m, k in s["factors"]), name)
    iv = acc.noisysgd_epsilon_interval(f, s["delta"], width=5e-3)
    prv = next(r for r in doc["records"] if r["setting"] == name
               and r["library"] == "prv-accountant" and r["eps_error"] == 1e-3)
    dpa = next(r for r in doc["records"] if r["setting"] == name
               and r["library"] == "dp-accounting" and r["vdi"] == 1e-4)
    assert iv.lower <= prv["estimate"] <= iv.upper
    assert dpa["optimistic"] <= iv.lower and iv.upper <= dpa["pessimistic"]


def test_scenario_adapter_rounds_up_and_keeps_the_papers_object():
    """The adapter hands Prop. D.4's C_p factors and an exact G(mu_0) factor to dpsym.pld, with
    p and every mu rounded up (never a smaller, more private, parameter)."""
    from fractions import Fraction

    from dpsym.fdp.prv import CpGaussianPRV
    from dpsym.pld import GaussianPair

    f = paper.thm_4_10(L=50, b=100, n=10000, sigma=3, eta="0.1", D=1, t=900, tau=100)
    (scen,) = acc.noisysgd_scenario(f)
    cp, g = scen
    assert isinstance(cp.pair, CpGaussianPRV) and isinstance(g.pair, GaussianPair)
    assert cp.count == 800 and g.count == 1
    def exact(x: mpf) -> Fraction:
        m, e = x.man_exp
        return Fraction(m) * Fraction(2) ** e

    assert cp.pair.p >= Fraction(1, 100) and cp.pair.mu >= exact(f.factors[0][0])
    assert g.pair.mu >= exact(f.gdp)


def test_delta_bands_match_single_evaluations():
    """One pass for many eps (PLDInterval.delta_bands) gives the same balls as delta_band."""
    from fractions import Fraction

    from dpsym.pld import certify_delta

    f = paper.thm_4_8(L=1, b=10, n=100, sigma=1, t=50)
    iv = certify_delta(acc.noisysgd_scenario(f), "0.5", rel_width=0.1)
    es = [Fraction(k, 10) for k in range(0, 30, 3)]
    assert iv.delta_bands(es) == [iv.delta_band(e) for e in es]


def test_width_sweep_narrows():
    f = paper.thm_4_8(L=10, b=1500, n=60000, sigma="0.01", t=2000)
    (w1, a), (w2, b) = acc.width_sweep(f, "1e-5", (1e-1, 1e-2))
    assert a.width <= w1 and b.width <= w2 and b.points > a.points
    assert a.lower <= b.lower <= b.upper <= a.upper


def test_unsafe_mutation_of_the_composition_is_caught():
    """A bound using a smaller mu (an unsafe mutation) gives an interval below the truth."""
    exact = float(gdp_epsilon("1.2", "1e-5", dps=20))
    f = paper.thm_4_8(L="2.9", b=10, n=10, sigma=1, t=16)      # mu = 0.29 instead of 0.3
    iv = acc.noisysgd_epsilon_interval(f, "1e-5", width=1e-3)
    assert iv.upper < exact


def test_best_tau_is_the_minimum_of_certified_bounds():
    SC = {"L": 5, "b": 10, "n": 200, "sigma": 1, "eta": "0.1", "m": 1, "M": 2}
    k = paper.prop_c_14(**SC, t=100).k_integer
    r = acc.best_tau(lambda tau: paper.thm_4_9(**SC, t=100, tau=tau), 100, k, points=2)
    assert r.epsilon.upper == min(e for _, e in r.tried)
    assert len(r.tried) >= 4 and 1 <= r.tau <= 100
    # tau = 0 is not admissible (erratum T49): best_tau skips it instead of failing
    assert all(tau >= 1 for tau, _ in r.tried)
