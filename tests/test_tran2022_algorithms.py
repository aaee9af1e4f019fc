"""Tran & Cutkosky 2022: Lemma 17, Algorithm 4, the noise of Algorithms 1 and 2, Lemmas 5, 11,
12, the smoke runs."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp
from mpmath import mpf

from dpsym.aggregation import dyadic_nodes, window_coefficients
from dpsym.errors import HypothesisError
from dpsym.papers.tran2022 import dp_nsgd as alg1
from dpsym.papers.tran2022 import illustration as il
from dpsym.papers.tran2022 import sensitivity_reduced as alg2

# --- Lemma 17 and Algorithm 4 ----------------------------------------------------------------


@pytest.mark.parametrize("N,T", [(2, 5), (3, 7), (3, 9), (4, 13), (2, 8)])
def test_lemma_17_fixed_vs_fresh(N, T):
    assert alg2.lem_17_residual(N, T, fresh=False) == 0
    r = alg2.lem_17_residual(N, T, fresh=True)
    gamma = sp.Symbol("gamma")
    assert r != 0
    assert sp.expand(r.subs(gamma, 1)) == 0  # the windows then add up to G_[1,T] trivially
    assert sp.factor(r).has(gamma)


def test_lemma_17_below_one_epoch_is_trivial():
    assert alg2.lem_17_residual(5, 4, fresh=True) == 0


def test_reconstruction_error():
    assert alg2.lem_17_reconstruction_error(4, 27, fresh=False) < 1e-14
    assert alg2.lem_17_reconstruction_error(4, 27, fresh=True) > 0.1
    assert alg2.lem_17_reconstruction_error(7, 100, d=5, alpha=0.05, gamma=0.3) < 1e-14


def _oracle_noise_samples(t, N, alpha, gamma, stds, draws, rng):
    """Oracle: draw one noise vector per node, rebuild every window of Lemma 17 through
    COMPOSE separately (no merging of shared nodes) and sum with Algorithm 4's weights."""
    beta = 1 - alpha
    nodes = dyadic_nodes(t)
    z = {(tr, v): rng.standard_normal(draws) * stds(tr, v) for tr in "GDr" for v in nodes}
    out = np.zeros(draws)
    wins = [(tr, a, b, alpha * w) for tr, a, b, w in alg2.lem_17_windows(t, N, beta, gamma)]
    for tr, a, b, w in [*wins, ("r", 1, t, alpha)]:
        for v, c in window_coefficients(a, b, beta):
            out += w * c * z[(tr, v)]
    return out


def test_alg_2_noise_variance_monte_carlo():
    N, T, t, alpha, gamma = 4, 27, 27, 0.3, 0.2
    sigma, G, L, eta = 1.5, 1.0, 2.0, 0.05
    exact = float(alg2.alg_2_noise_variance(t, N, T, alpha, gamma, sigma, G, L, eta))
    f64 = alg2.alg_2_noise_variance(t, N, T, alpha, gamma, sigma, G, L, eta, float64=True)
    assert abs(exact - f64) < 1e-12 * exact

    def stds(tr, v):
        return float(alg2.alg_2_node_std(tr, v, N, T, sigma, G, L, eta, dps=20))

    x = _oracle_noise_samples(t, N, alpha, gamma, stds, 40000, np.random.default_rng(5))
    z = (np.mean(x**2) - exact) / (exact * np.sqrt(2 / x.size))
    assert abs(z) < 4.5
    # A node noise counted once per window (Var_2 as first written) would give a different value.
    assert abs(np.mean(x**2) - 1.08 * exact) / (exact * np.sqrt(2 / x.size)) > 4.5


def test_lemma_7_bound_vs_exact_at_the_papers_parameters():
    N, d, eps = 64, 10, 1
    delta = mpf(N) ** -2
    T = int(mpmath.floor(alg2.thm_9_parameters(N, eps, d, dps=20).T))
    p = alg2.thm_9_parameters(N, eps, d, T=T, dps=20)
    sigma = alg2.thm_8_sigma(eps, delta, dps=20)
    var = alg2.alg_2_noise_variance(T, N, T, p.alpha, p.gamma, sigma, 1, 1, p.eta, dps=20)
    exact = mpmath.sqrt(d * var)
    bound = alg2.lem_7(1, 1, p.alpha, p.eta, d, T, N, eps, delta, dps=20)
    assert 20 < bound / exact < 40


def test_thm_9_parameters():
    p = alg2.thm_9_parameters(100, 1, 10, dps=30)
    with mpmath.workdps(40):
        assert abs(p.alpha - mpf(1) / 100) < mpf(10) ** -28  # alpha = 1/N at T_9
        assert abs(p.gamma - p.eta * 100) < mpf(10) ** -28
    b = alg2.thm_9(1, 1, 1, 100, 1, "1e-4", 10, dps=20)
    assert b > 0
    with pytest.raises(HypothesisError):
        alg2.thm_9(1, 1, 1, 100, 1, 0, 10)


# --- Algorithm 1, Lemmas 5, 11, 12 ----------------------------------------------------------


def test_lemma_12_count_counterexample():
    # t = T = 3: COMPOSE(1, 3) has 2 nodes > log2 3; with d = 3 and small alpha the exact
    # E||m_hat - m|| exceeds the bound.
    kw = {"alpha": "0.01", "G": 1, "sigma": 1, "d": 3, "V": alg1.alg_1_V(100, 3)}
    exact = alg1.lem_12_exact(t=3, **kw)
    bound = alg1.lem_12(T=3, **kw)
    assert exact > bound * mpf("1.02")
    assert alg1.lem_12_exact(t=3, weighted=False, **kw) > exact
    # Where log2 T >= popcount(t) the lemma holds (t = T = 8).
    assert alg1.lem_12_exact(t=8, **kw) < alg1.lem_12(T=8, **kw)
    with mpmath.workdps(30):
        assert abs(alg1.expected_gaussian_norm(1) - mpmath.sqrt(2 / mpmath.pi)) < 1e-25


def test_lemma_11_initial_error():
    err = alg1.lem_11_initial_error("0.01", 1)
    bound = alg1.lem_11(1, "0.01", "1e-9", 100, 0)
    with mpmath.workdps(40):
        assert abs(err - mpf("0.99")) < mpf(10) ** -40
    assert bound < mpf("0.21") < err
    # The omitted term is (1 - alpha)^t G: gone for large t.
    assert alg1.lem_11_initial_error("0.01", 1000) < alg1.lem_11(1, "0.01", "1e-9", 100, 0)


def test_lemma_5_case_analysis():
    st = alg1.lem_5_step(np.array([1.0, 0.0]), np.array([-2.0, 0.0]))
    assert st.lhs == 1.0 and not st.case2_claim and st.final_holds
    scan = alg1.lem_5_scan(40000, seed=1)
    assert scan.final_violations == 0 and scan.case2_violations > 1000 and scan.max_final_gap < 0
    assert alg1.lem_5(1, "0.1", 10, 2, "0.5") == pytest.approx(1.5 + 0.15 + 1.5)
    with pytest.raises(HypothesisError):
        alg1.lem_5_step(np.array([1.0]), np.array([-1.0]))


def test_thm_6_parameters_and_bound():
    p = alg1.thm_6_parameters(1000, 1, "1e-6", 10, dps=30)
    with mpmath.workdps(40):
        # T log2 T = eps N^2 / sqrt(d ell)  and alpha = 1/N there
        lhs = p.T * mpmath.log(p.T, 2)
        assert abs(lhs / (mpf(10) ** 6 / mpmath.sqrt(10 * p.ell)) - 1) < mpf(10) ** -25
        assert abs(p.alpha - mpf("0.001")) < mpf(10) ** -28
    assert alg1.thm_6(1, 1, 1, 1000, 1, "1e-6", 10, dps=20) > 0


def test_alg_1_run_noise_matches_the_node_std():
    data = il.robust_regression(64, 3, seed=2)
    run = alg1.alg_1(data.grad, 64, 200, np.zeros(3), 0.01, 1 / 64, 2.0, data.G, seed=3)
    assert run.w.shape == (201, 3)
    # At t = 128 (one node) the noise is a single node's Gaussian: E||z||^2 = d s^2.
    assert run.node_std == pytest.approx(4 / 64 * data.G * 2.0 * np.sqrt(float(run.V)))
    with pytest.raises(HypothesisError):
        alg1.alg_1(data.grad, 64, 200, np.zeros(3), 0.01, 1 / 64, 2.0, data.G, R=3)


# --- smoke runs and the sweep ---------------------------------------------------------------


def test_robust_loss_constants_oracle():
    _phi, G, L = il.robust_loss_constants()
    assert sp.simplify(G - 3 * sp.sqrt(3) / 8) == 0 and L == 2
    u = np.linspace(-20, 20, 400001)  # oracle: a dense grid
    d1 = 2 * u / (1 + u**2) ** 2
    d2 = (2 - 6 * u**2) / (1 + u**2) ** 3
    assert abs(np.max(np.abs(d1)) - float(G)) < 1e-7 and abs(np.max(np.abs(d2)) - 2) < 1e-12


def test_alg_2_runs():
    fixed = il.smoke_run(2, 16, d=3, seed=0)
    fresh = il.smoke_run(2, 16, d=3, seed=0, fixed_permutation=False)
    clean = il.smoke_run(2, 16, d=3, seed=0, noise=False)
    assert fixed.recon_rel_error < 1e-9 and clean.recon_rel_error < 1e-13
    assert fresh.recon_rel_error > 0.05
    assert fixed.gradient_evaluations == 3 * fixed.T - 16
    assert clean.grad_norm_last < clean.grad_norm_start / 2  # without noise it optimises


def test_alg_1_run():
    r = il.smoke_run(1, 256, d=5, seed=0)
    assert r.T == 897 and np.isfinite(r.grad_norm_mean)


def test_noise_sweep_small():
    s = il.noise_vs_N((64, 128, 256))
    assert s.T2[0] == 3529 and s.T1[0] == 72
    assert all(b > v for b, v in zip(s.bound1, s.std1, strict=True))
    assert all(b > 20 * v for b, v in zip(s.bound2, s.std2, strict=True))
    assert s.limit1 == sp.Rational(-1, 2) and s.limit2 == sp.Rational(-2, 3)
    assert -0.5 < s.slope1 < 0 and -2 / 3 < s.slope2 < 0


def test_lemma_7_var2_forms():
    f = alg2.lem_7_var2_forms(16, 8, "0.1", "0.1", dps=30)
    with mpmath.workdps(40):
        w = [mpf("0.9") ** (16 * i) * mpf("0.9") ** (8 - i - 1) for i in range(8)]
        assert abs(f.square_of_sum - mpmath.fsum(w) ** 2) < mpf(10) ** -25  # oracle
    assert f.sum_of_squares < f.square_of_sum <= f.printed_bound
    with pytest.raises(HypothesisError):
        alg2.lem_7_var2_forms(16, 0, "0.1", "0.1")
