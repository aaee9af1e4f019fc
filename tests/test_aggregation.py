"""dpsym.aggregation: dyadic nodes, COMPOSE, window sums, prefix noise, epochs, accounting."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from mpmath import mpf

from dpsym.aggregation import (
    Node,
    ancestors,
    budget_guarantee,
    compose,
    dyadic_nodes,
    epoch_sum,
    epoch_sum_closed_form,
    expand_windows,
    is_dyadic,
    max_node_count,
    momentum_through_tree,
    momentum_through_tree_max_error,
    node_count,
    node_values,
    node_weight,
    occurrences,
    popcount,
    prefix_noise_monte_carlo,
    prefix_noise_variance,
    record_budget,
    released_at,
    sigma_for_gdp,
    sigma_for_zcdp,
    tree_composition,
    window_sum,
    worst_node_weight,
    worst_record_budget,
)
from dpsym.errors import HypothesisError
from dpsym.fdp.gdp import gdp_epsilon
from dpsym.rdp.conversions import zcdp_to_epsilon

# --- tree -----------------------------------------------------------------------------------


def test_compose_exhaustive():
    for a in range(1, 65):
        for b in range(a, 131):
            s = compose(a, b)
            assert [i for v in s for i in range(v.y, v.z + 1)] == list(range(a, b + 1))
            assert all(is_dyadic(*v) for v in s)
            assert len(s) <= 2 * (b - a + 1).bit_length()
            if a == 1:
                assert len(s) == popcount(b)


def test_compose_examples_and_errors():
    assert compose(1, 7) == [Node(1, 4), Node(5, 6), Node(7, 7)]
    assert compose(2, 8) == [Node(2, 2), Node(3, 4), Node(5, 8)]
    assert compose(6, 13) == [Node(6, 6), Node(7, 8), Node(9, 12), Node(13, 13)]
    for a, b in ((0, 3), (3, 2), (1.5, 4)):
        with pytest.raises(HypothesisError):
            compose(a, b)


def test_nodes_and_ancestors():
    for T in (1, 2, 8, 13, 64):
        nodes = dyadic_nodes(T)
        assert len(nodes) == node_count(T) == len(set(nodes))
        assert all(is_dyadic(*v) and v.z <= T for v in nodes)
        for i in range(1, T + 1):
            anc = ancestors(i, T)
            assert all(v.y <= i <= v.z for v in anc)
            assert set(anc) == {v for v in nodes if v.y <= i <= v.z}
    assert node_count(64) == 127
    assert all(len(ancestors(i, 64)) == 7 for i in range(1, 65))
    assert released_at(12) == [Node(12, 12), Node(11, 12), Node(9, 12)]
    with pytest.raises(HypothesisError):
        ancestors(9, 8)


def test_window_sums_exact_rationals():
    rng = np.random.default_rng(1)
    g = [Fraction(int(x), 7) for x in rng.integers(-20, 20, size=37)]
    beta = Fraction(3, 4)
    vals = node_values(g, beta, scale=Fraction(1, 4))
    for a in range(1, 38):
        for b in range(a, 38):
            direct = Fraction(1, 4) * sum(beta ** (b - i) * g[i - 1] for i in range(a, b + 1))
            assert window_sum(vals, a, b, beta) == direct


def test_momentum_through_tree():
    assert all(momentum_through_tree(t).holds for t in range(1, 17))
    assert momentum_through_tree_max_error(1024, 0.05) < 1e-13


def test_prefix_noise_variance_exact():
    assert all(prefix_noise_variance(t, 1, 1) == popcount(t) for t in range(1, 200))
    b = Fraction(9, 10)
    assert prefix_noise_variance(7, b, 2) == 2 * (b**6 + b**2 + 1)


def test_prefix_noise_monte_carlo_detects_a_wrong_variance():
    mc = prefix_noise_monte_carlo(64, 0.9, 1.5, draws=20000, seed=3)
    assert mc.max_abs_z < 4.5
    # Mutation: a variance 5% too large is caught (z ~ 5 per prefix at this sample size).
    z_bad = (mc.sampled - 1.05 * mc.exact) / (1.05 * mc.exact * np.sqrt(2 / mc.draws))
    assert np.max(np.abs(z_bad)) > 4.5


# --- epochs ---------------------------------------------------------------------------------


def test_epoch_sum_closed_form_and_limits():
    forms = epoch_sum_closed_form()
    assert forms.finite.holds
    alpha, N = sp.Symbol("alpha", positive=True), sp.Symbol("N", integer=True, positive=True)
    c = sp.Symbol("c", positive=True)
    assert sp.simplify(forms.limit_epochs - 1 / (1 - (1 - alpha) ** N)) == 0
    assert sp.simplify(forms.limit_long_epochs - 1 / (1 - sp.exp(-c))) == 0
    # The closed form against the plain sum at n = 9, N = 5, alpha = 0.03.
    closed = forms.finite.derived
    syms = {s.name: s for s in closed.free_symbols}
    value = closed.subs({syms["n"]: 9, syms["N"]: 5, syms["alpha"]: sp.Rational(3, 100)})
    assert sp.nsimplify(value) == epoch_sum(9, 5, 1 - Fraction(3, 100))


def test_worst_node_weight_is_the_max_over_placements():
    for N in (2, 3, 5):
        beta = Fraction(2, 3)
        T = 4 * N
        for v in dyadic_nodes(T):
            best = 0
            for p in itertools.product(range(1, N + 1), repeat=4):
                best = max(best, node_weight(v, occurrences(p, N, T), beta))
            assert best == worst_node_weight(v, N, beta)


def test_record_budget_by_hand():
    # N = 2, T = 4, record at slot 2 then slot 1: steps 2 and 3.
    r = record_budget(4, 2, (2, 1), Fraction(1, 2))
    # nodes containing 2 or 3: [2,2], [3,3], [1,2], [3,4] (weight 1/2), [1,4] (1/4 + 1/2)
    assert r.count == 5
    assert r.sum_sq == 1 + 1 + 1 + Fraction(1, 4) + Fraction(9, 16)
    best, exhaustive = worst_record_budget(4, 2, Fraction(1, 2))
    assert exhaustive and best.sum_sq >= r.sum_sq
    assert max_node_count(4, 2) == (5, True)


def test_expand_windows_merges_shared_nodes():
    coef = expand_windows([("G", 1, 4, 2), ("G", 1, 2, 3), ("D", 3, 4, 1)], Fraction(1, 2))
    assert coef[("G", Node(1, 4))] == 2
    assert coef[("G", Node(1, 2))] == 3
    assert coef[("D", Node(3, 4))] == 1


# --- composition ----------------------------------------------------------------------------


def test_tree_composition_and_routes():
    g = tree_composition(9, "0.1", dps=30)
    b = budget_guarantee(4, 2, dps=30)
    with mpmath.workdps(40):
        assert abs(g.mu - mpf("0.3")) < mpf(10) ** -28
        assert abs(g.zcdp - mpf("0.045")) < mpf(10) ** -28
        assert abs(g.rdp(5) - mpf("0.225")) < mpf(10) ** -28
        assert g.mu >= mpf("0.3") and g.zcdp >= mpf("0.045")  # rounded up
        assert abs(b.mu - 1) < mpf(10) ** -28 and abs(b.zcdp - mpf("0.5")) < mpf(10) ** -28
    e = [b.epsilon("1e-6", r) for r in ("gdp", "rdp", "zcdp")]
    assert e[0] < e[1] < e[2]
    with pytest.raises(HypothesisError):
        b.rdp(1)
    with pytest.raises(HypothesisError):
        b.epsilon("1e-6", "pld")
    with pytest.raises(HypothesisError):
        tree_composition(0, 1)


@pytest.mark.parametrize("k", [1, 3, 4])
def test_sigma_thresholds_are_tight(k):
    eps, delta = 1, "1e-5"
    s = sigma_for_zcdp(eps, delta, k, dps=30)
    with mpmath.workdps(40):
        assert zcdp_to_epsilon(k / (2 * s * s), delta, dps=30) <= 1 + mpf(10) ** -25
        smaller = s * (1 - mpf(10) ** -6)
        assert zcdp_to_epsilon(k / (2 * smaller**2), delta, dps=30) > 1
    s = sigma_for_gdp(eps, delta, k, dps=30)
    with mpmath.workdps(40):
        assert gdp_epsilon(mpmath.sqrt(k) / s, delta, dps=30) <= 1 + mpf(10) ** -20
        assert gdp_epsilon(mpmath.sqrt(k) / (s * (1 - mpf(10) ** -6)), delta, dps=30) > 1
