"""Liang et al. 2025, Sec. 4: eq. (24), the experiments' noise level, and the CPU-scale
membership-inference audit (dpsym.experiments.membership_audit)."""

from __future__ import annotations

import doctest
import math
import time
from dataclasses import replace

import numpy as np
import pytest
from scipy.stats import binomtest

import dpsym.experiments.membership_audit as ma
from dpsym.errors import HypothesisError
from dpsym.papers.liang2025 import experiments as ex

SMALL = ma.AuditConfig(ma.RunConfig(n=200, b=20, eta=0.5, C=1.0, sigma=0.035, T=100), runs=40)


def test_doctests():
    assert doctest.testmod(ma).failed == 0


def test_epsilon_from_rates():
    assert ma.epsilon_from_rates(0.5, 0.5, 0.0) == 0.0
    assert ma.epsilon_from_rates(0.1, 0.3, 1e-5) == ma.epsilon_from_rates(0.3, 0.1, 1e-5)
    assert ex.eq_24(0.1, 0.3) == ma.epsilon_from_rates(0.1, 0.3, 1e-5)
    assert math.isinf(ma.epsilon_from_rates(0.0, 0.2, 1e-5))
    assert ma.epsilon_from_rates(0.6, 0.6, 1e-5) == 0.0  # worse than guessing: no evidence
    # monotone: more errors, less evidence
    assert ma.epsilon_from_rates(0.05, 0.3, 1e-5) > ma.epsilon_from_rates(0.1, 0.3, 1e-5)
    with pytest.raises(HypothesisError):
        ma.epsilon_from_rates(1.2, 0.1, 1e-5)


@pytest.mark.parametrize("k,n", [(0, 30), (3, 30), (15, 30), (30, 30), (7, 200)])
def test_clopper_pearson_against_scipy(k, n):
    lo, hi = ma.clopper_pearson(k, n, 0.95)
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    assert abs(lo - ci.low) < 1e-12 and abs(hi - ci.high) < 1e-12


def test_training_is_seeded_and_projection_holds():
    X, y = ma.subset(50, 0)
    cfg = ma.RunConfig(n=50, b=10, eta=0.5, C=1.0, sigma=0.5, T=30, D=3.0)
    a, b = ma.train(cfg, X, y, 7), ma.train(cfg, X, y, 7)
    assert np.array_equal(a, b)
    theta0 = ma.init_params(cfg.hidden, cfg.init_seed)
    assert np.linalg.norm(a - theta0) <= 1.5 + 1e-12
    free = ma.train(replace(cfg, D=None), X, y, 7)
    assert np.linalg.norm(free - theta0) > 1.5  # the noise walk leaves the ball without K


def test_canary_is_zero_on_the_data_and_unseen_by_other_gradients():
    x, _lab = ma.canary("blank_pixels")
    data = ma.load_data()
    support = np.flatnonzero(x)
    assert support.size >= 1 and np.all(data.X_train[:, support] == data.X_train[0, support])


def test_audit_lower_bound_never_exceeds_the_upper_bounds():
    t0 = time.process_time()
    res = ma.audit(SMALL)
    cpu = time.process_time() - t0
    acc = ex.accountant_epsilon(SMALL.run, SMALL.delta)
    assert 0 <= res.eps_lower <= res.eps_upper
    assert res.eps_lower <= float(acc)
    assert res.n_out + res.n_in == SMALL.runs
    assert cpu < 20  # the CI configuration stays small
    # the loss separates the worlds: members have lower canary loss on average
    assert np.median(res.losses_in) < np.median(res.losses_out)


def test_audit_is_reproducible():
    a = ma.audit(replace(SMALL, runs=8))
    b = ma.audit(replace(SMALL, runs=8))
    assert np.array_equal(a.losses_in, b.losses_in) and a.eps_hat == b.eps_hat


def test_audit_with_bounds_reports_every_bound():
    cfg = replace(SMALL, runs=8, run=replace(SMALL.run, D=12.0))
    c = ex.audit_with_bounds(cfg, "dc", L_assumed=("1",))
    assert set(c.eps_combined) == {"1"} and c.eps_refined["1"] <= c.eps_combined["1"]
    assert c.eps_eq12 > c.eps_accountant  # (12) is the weaker bound at this q
    assert "accountant" in c.summary()


def test_the_papers_experiments_are_vacuous():
    rows = ex.figure_2_setting(L="0.1")
    assert len(rows) == 6
    for r in rows:
        assert r.rho_dc > 5e9 and r.t_star_epochs > 2e5
        assert all(v > 1e3 for v in r.eps_at.values())  # printed MIA estimates are 0.04-1.4
    assert {float(r.noise_multiplier) for r in rows} == {0.01, 0.04}


def test_utility_vs_D_runs():
    rows = ex.utility_vs_D(sigma=0.2, diameters=(4, None), seeds=2, T=60)
    assert [r.D for r in rows] == [4, None]
    assert all(0 <= r.acc_mean <= 1 and r.loss_mean > 0 for r in rows)
