"""Birrell et al. 2024: sampling laws, Lemmas A.1/D.1, sensitivity, variances, CPU proxy."""

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from dpsym import sampling as smp
from dpsym.papers.birrell2024 import sampling as paper


@pytest.mark.parametrize("N,B", [(2, 1), (5, 2), (7, 3), (8, 7)])
def test_lemma_a1_exact(N, B):
    r = paper.lem_a_1(N, B)
    assert r.holds and r.max_diff == 0 and r.support == sp.binomial(N, B)


@pytest.mark.parametrize("N,B", [(2, 1), (3, 3), (4, 2), (5, 3)])
def test_lemma_d1_exact(N, B):
    r = paper.lem_d_1(N, B)
    assert r.holds and r.support == N**B


def test_decomposition_detects_a_wrong_law():
    # FSwR is not FSwoR: the comparison used by the checks must see the difference.
    law = smp.lemma_a1_law(4, 2)
    assert smp._compare(law, smp.fswor_law(4, 2))[0]
    wrong = {k: v for k, v in smp.poisson_law(4, Fraction(1, 2)).items() if len(k) == 2}
    assert not smp._compare(law, wrong)[0]


def test_laws_are_probability_measures():
    for law in (smp.fswor_law(6, 3), smp.fswr_law(3, 3), smp.poisson_law(5, "1/3"),
                smp.lemma_d1_law(3, 2)):
        assert sum(law.values()) == 1
    b = smp.batch_size_law("poisson", 40, 8)
    assert sum(b.values()) == 1
    assert sum(k * p for k, p in b.items()) == 8
    assert smp.batch_size_law("fswor", 40, 8) == {8: 1}


@pytest.mark.parametrize("call,needle", [
    (lambda: smp.lemma_a1_law(3, 3), "B=3 violates B < N = 3"),
    (lambda: smp.fswor_law(2, 3), "B=3 violates B <= N = 2"),
    (lambda: smp.poisson_law(3, 2), "q=2 violates 0 <= q <= 1"),
    (lambda: smp.batch_size_law("shuffle", 3, 1), "scheme=shuffle violates"),
    (lambda: smp.fswr_law(2.5, 1), "N=2.5 violates an integer"),
    (lambda: smp.lemma_a1_law(30, 15), "support size"),
    (lambda: paper.eq_22(0.1, 0.0, 10), "a2bar=0.0 violates a2bar > 0"),
    (lambda: paper.eq_147(5, 5), "B=5 violates B < N = 5"),
])
def test_bad_input(call, needle):
    with pytest.raises(ValueError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_sensitivity_and_ratio():
    C, eta, sigma = sp.symbols("C eta sigma", positive=True)
    for n, b in ((4, 1), (6, 3)):
        assert sp.simplify(paper.eq_32(n, b) - 2 * C * eta / b) == 0
        assert sp.simplify(paper.eq_32(n, b, "poisson") - C * eta / b) == 0
    assert paper.eq_37() == sigma / 2
    assert paper.eq_37("poisson") == sigma


def test_variance_identities_symbolic_and_enumerated():
    assert all(r == 0 for r in paper.app_f_symbolic().values())
    assert all(r == 0 for r in paper.app_f_enumeration(5, 2).values())
    assert paper.sec_4_1_printed_index_set(5, 2) != 0  # the printed {2..|D|} is a typo
    assert paper.eq_147(50000, 120) == Fraction(49999, 49880)


def _exact_variance(a, B, scheme):
    N = len(a)
    law = {"fswor": smp.fswor_law, "fswr": smp.fswr_law}[scheme](N, B) if scheme != "poisson" \
        else smp.poisson_law(N, Fraction(B, N))
    m1 = sum(p * Fraction(sum(a[i] for i in b), B) for b, p in law.items())
    m2 = sum(p * Fraction(sum(a[i] for i in b), B) ** 2 for b, p in law.items())
    return m2 - m1**2


@settings(max_examples=15)
@given(st.lists(st.integers(-5, 5), min_size=3, max_size=5), st.integers(1, 4),
       st.sampled_from(smp.SCHEMES))
def test_closed_form_equals_exact_law(a, B, scheme):
    N = len(a)
    B = min(B, N - 1)
    abar = Fraction(sum(a), N)
    a2bar = Fraction(sum(x * x for x in a), N)
    assert _exact_variance(a, B, scheme) == smp.variance_closed_form(scheme, abar**2, a2bar, N, B)


def test_monte_carlo_matches_closed_form():
    a = paper.synthetic_gradients(100, 5, 1.0, seed=3)
    mc = smp.monte_carlo_variance(a, 10, samples=1500, seed=4)
    for s in smp.SCHEMES:
        assert abs(mc.measured[s] - mc.closed_form[s]) < 4 * mc.stderr[s]
    assert abs(mc.ratio_measured - mc.ratio_closed_form) < 0.1
    assert mc.ratio_closed_form < 0.6  # aligned gradients: fixed size wins clearly


def test_batch_size_extremes():
    lo, hi = smp.batch_size_extremes(50000, Fraction(120, 50000), 41600)
    assert (lo, hi) == (77, 168)
    lo2, hi2 = smp.batch_size_extremes(50000, Fraction(120, 50000), 41600, p="0.999")
    assert lo2 < lo and hi2 > hi
    assert smp.batch_size_extremes(1000, "0.1", 1)[1] in range(95, 106)


# --- CPU proxy ---------------------------------------------------------------------------

def test_per_example_gradients_finite_differences():
    from dpsym.experiments import dpsgd_proxy as proxy

    d = proxy.load_data()
    th = proxy.init_params(8, seed=1)
    xb, yb = d.X_train[:2], d.y_train[:2]
    G = proxy.per_example_gradients(th, xb, yb, hidden=8)

    def loss(t, i):
        _, p, _ = proxy._forward(t, xb[i:i + 1], 8)
        return -np.log(p[0, yb[i]])

    for j in (3, 200, 520, th.size - 1):
        e = np.zeros_like(th)
        e[j] = 1e-6
        fd = (loss(th + e, 1) - loss(th - e, 1)) / 2e-6
        assert abs(fd - G[1, j]) < 1e-6
    assert np.allclose(np.linalg.norm(proxy.clip_rows(G, 0.1), axis=1), 0.1)


def test_proxy_run_is_seeded_and_sizes_behave():
    from dpsym.experiments.dpsgd_proxy import ProxyConfig, run_dpsgd

    cfg = ProxyConfig(sampling="fswor", epochs=1, hidden=8, batch_size=100, lr=0.1)
    r1, r2 = run_dpsgd(cfg), run_dpsgd(cfg)
    assert r1.accuracy == r2.accuracy and set(r1.batch_sizes) == {100}
    rp = run_dpsgd(replace(cfg, sampling="poisson", measure_memory=True))
    assert len(set(rp.batch_sizes)) > 1
    big, small = np.argmax(rp.batch_sizes), np.argmin(rp.batch_sizes)
    assert rp.peak_bytes[big] > rp.peak_bytes[small]
    with pytest.raises(ValueError, match="sampling=shuffle violates"):
        ProxyConfig(sampling="shuffle")


def test_figures_registered():
    from dpsym.figures import all_figures

    names = {f.name for f in all_figures("birrell2024")}
    assert {"figure_4_bottom_proxy", "figure_5_proxy", "figure_10_proxy",
            "eq22_variance_ratio"} <= names


# --- accountant records (dpsym.accounting) ------------------------------------------------

def test_accounting_events_upper_above_lower():
    from dpsym.accounting import FixedSizeSampledGaussian as Fixed
    from dpsym.accounting import PoissonSampledGaussian as Pois

    events = [Pois("0.0024", 6, 1000), Pois("0.0024", 6, 1000, adjacency="replace-one"),
              Fixed(120, 50000, 6, 1000), Fixed(120, 50000, 6, 1000, adjacency="replace-one"),
              Fixed(4, 50000, 6, 1000, replacement=True), Fixed(3, 30, "2.5", 7, replacement=True)]
    for ev in events:
        for alpha in (2, 3, 12):
            up, lo = ev.rdp(alpha, dps=25), ev.rdp_lower(alpha, dps=25)
            assert lo is None or 0 <= lo <= up, (ev, alpha)
        assert ev.rdp_lower("2.5", dps=25) is None
    # FSwoR add/remove at alpha = 2: the m >= 3 expansion is exact, so the bounds meet.
    ev = Fixed(120, 50000, 6, 1000)
    assert abs(ev.rdp(2, dps=25) - ev.rdp_lower(2, dps=25)) < 1e-20
    # Poisson add/remove: Mironov et al.'s A_alpha is attained.
    ev = Pois("0.01", 2, 10)
    assert abs(ev.rdp(5, dps=25) - ev.rdp_lower(5, dps=25)) < 1e-20
