"""The precision contract: a result never depends on mpmath's global precision.

Every public callable (every name in an ``__all__`` of a dpsym module, and every statement
function a registered paper package exposes) is called at ``dps = 40`` under global
precisions of 5, 15 and 100 digits; the three results must agree to 40 significant digits
(exactly, for results that are not mpf: floats, integers, fractions, sympy expressions,
arrays).  A leak, a product of inputs formed outside a ``precision`` block, shows up as
agreement to about 15 digits.

``CASES`` holds, for each callable, the arguments it is called with: its documented
defaults where it has them, the paper's own example (docstring, claim or test) where it
has one, otherwise small valid inputs.  A callable with nothing to check says why
(``exempt``): figures (float64 drawings), the ledger and report machinery, context
primitives that by design work at the caller's precision (``Phi``, ``log_a_int``, the
tradeoff objects), record types and type aliases.  A callable missing from the table fails
``test_every_public_callable_has_a_case``: add its arguments (or the reason it is exempt).

Known leaks in files this change does not own are ``xfail(strict=True)`` with their
location, so a fix turns them into a failure that says "remove the xfail".
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import inspect
import pkgutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp
from mpmath import mpf

import dpsym
from dpsym.numerics import agreeing_digits
from dpsym.papers import registry

DPS = 40
CONTEXTS = (5, 15, 100)


@dataclasses.dataclass(frozen=True)
class Call:
    """Call with ``args``/``kwargs`` (``dps=DPS`` added when the callable takes ``dps``);
    ``via(f)`` replaces the call for classes and callables that need setting up."""

    args: tuple = ()
    kwargs: dict = dataclasses.field(default_factory=dict)
    via: Any = None


@dataclasses.dataclass(frozen=True)
class Exempt:
    reason: str


def _poisson_run(sigma: object = 1) -> Any:
    from dpsym.accounting import poisson_run

    return poisson_run("0.01", 100)(sigma)


def call(*args: Any, **kwargs: Any) -> Call:
    return Call(args, kwargs)


def via(fn: Any) -> Call:
    return Call(via=fn)


def exempt(reason: str) -> Exempt:
    return Exempt(reason)


FIGURE = "draws a matplotlib Figure (float64); the data it draws is checked where it is computed"
MACHINERY = "ledger/report/CLI/registry machinery: no number of its own"
CONTEXT = ("a context primitive: by design it computes at the caller's working precision "
           "(documented); every dpsym caller wraps it in precision(...)")
RECORD = "a record type (dataclass): stores what it is given"
ALIAS = "a type alias"
TRANSITIONAL = "transitional ledger module, removed by the paper migrations"
SYMBOLIC = "an exact sympy derivation (no floating point, so no precision to leak)"
FILES = "reads or writes files; the values it loads are checked where they are used"
SIMULATION = ("a float64 simulation (seeded) that no mpmath context reaches; the mpmath "
              "bounds it is set against are checked")
GENERIC = ("generic arithmetic, no dps: computes in the type it is given (Fraction, sympy, or "
           "mpf at the caller's precision, documented); its dpsym callers fix the precision")
FLOAT64 = "a float64 path for plots, derived from a checked mpmath function"
ARB = ("built on the certified PLD engine's arb balls (python-flint), which no mpmath context "
       "reaches; the intervals' containment of exact values is tested where they are computed")

#: A small run of the DP-SGD proxy (the defaults train for minutes).
_SMALL_PROXY = dict(epochs=1, hidden=8, batch_size=64)

CASES: dict[str, Call | Exempt] = {
    # --- dpsym.accounting --------------------------------------------------------------
    "dpsym.accounting.runs.AccountingReport": exempt(RECORD),
    "dpsym.accounting.runs.FixedSizeSampledGaussian": via(
        lambda f: f(120, 50000, 6, 10).rdp(3, dps=DPS)),
    "dpsym.accounting.runs.GaussianDP": exempt(RECORD),
    "dpsym.accounting.runs.PoissonSampledGaussian": via(
        lambda f: f("0.01", 1, 100).rdp(3, dps=DPS)),
    "dpsym.accounting.runs.default_orders": via(lambda f: f(
        importlib.import_module("dpsym.accounting").PoissonSampledGaussian("0.01", 1))),
    "dpsym.accounting.runs.gdp_account": via(lambda f: f(
        importlib.import_module("dpsym.accounting").GaussianDP(1), delta="1e-5", dps=DPS)),
    "dpsym.accounting.accountants.rdp_account": via(lambda f: f(
        importlib.import_module("dpsym.accounting").PoissonSampledGaussian("0.01", 1, 100),
        delta="1e-5", orders=[3], dps=DPS)),
    # --- dpsym.experiments (float64 simulation of DP-SGD) --------------------------------
    "dpsym.experiments.dpsgd_proxy.Data": exempt(RECORD),
    "dpsym.experiments.dpsgd_proxy.ProxyConfig": exempt(RECORD),
    "dpsym.experiments.dpsgd_proxy.RunResult": exempt(RECORD),
    "dpsym.experiments.dpsgd_proxy.VarianceAtTheta": exempt(RECORD),
    "dpsym.experiments.dpsgd_proxy.clip_factors": call(np.array([[3.0, 4.0], [0.1, 0.2]]), 1.0),
    "dpsym.experiments.dpsgd_proxy.clip_rows": call(np.array([[3.0, 4.0], [0.1, 0.2]]), 1.0),
    "dpsym.experiments.dpsgd_proxy.gradient_variance": via(lambda f: f(
        importlib.import_module("dpsym.experiments.dpsgd_proxy").init_params(hidden=8), "init",
        hidden=8, samples=20)),
    "dpsym.experiments.dpsgd_proxy.init_params": call(),
    "dpsym.experiments.dpsgd_proxy.load_data": call(),
    "dpsym.experiments.dpsgd_proxy.per_example_gradients": via(lambda f: f(
        importlib.import_module("dpsym.experiments.dpsgd_proxy").init_params(hidden=8),
        np.ones((2, 64)), np.array([0, 1]), hidden=8)),
    "dpsym.experiments.dpsgd_proxy.run_dpsgd": via(lambda f: f(
        importlib.import_module("dpsym.experiments.dpsgd_proxy").ProxyConfig(**_SMALL_PROXY))
        .accuracy),
    "dpsym.experiments.dpsgd_proxy.test_accuracy": via(lambda f: f(
        importlib.import_module("dpsym.experiments.dpsgd_proxy").init_params(hidden=8),
        importlib.import_module("dpsym.experiments.dpsgd_proxy").load_data(), hidden=8)),
    # --- dpsym.fdp ---------------------------------------------------------------------
    "dpsym.fdp.clt.clt_K": call("0.5"),
    "dpsym.fdp.clt.clt_mu": call("0.01", 2, 1000),
    "dpsym.fdp.gdp.compose_gdp": call("0.5", "1.5", 2),
    "dpsym.fdp.gdp.gdp_delta": call(1, 1),
    "dpsym.fdp.gdp.gdp_epsilon": call(1, "1e-5"),
    "dpsym.fdp.gdp.gdp_mu_from_epsilon_delta": call(1, "1e-5"),
    "dpsym.fdp.gdp.gdp_to_rdp": call("0.5", 3),
    "dpsym.fdp.prv.ComposedPRV": exempt(RECORD),
    "dpsym.fdp.prv.compose_subsampled_gaussian": via(lambda f: f(0.01, 0.5, 4, h=1e-3)
                                                     .epsilon_interval(1e-5)),
    "dpsym.fdp.prv.prv_atom": call(0.01, 0.5),
    "dpsym.fdp.prv.prv_cdf": call(np.array([-0.1, 0.0, 0.3]), 0.01, 0.5),
    "dpsym.fdp.symbolic.Derivation": exempt(RECORD),
    "dpsym.fdp.tradeoff.EpsDelta": exempt(CONTEXT),
    "dpsym.fdp.tradeoff.Gaussian": exempt(CONTEXT),
    "dpsym.fdp.tradeoff.PiecewiseLinear": exempt(CONTEXT),
    "dpsym.fdp.tradeoff.TradeoffCheck": exempt(RECORD),
    "dpsym.fdp.tradeoff.TradeoffFunction": exempt(CONTEXT),
    "dpsym.fdp.tradeoff.check_tradeoff": via(lambda f: f(
        importlib.import_module("dpsym.fdp.tradeoff").Gaussian(1), n=8, dps=DPS)),
    "dpsym.fdp.tradeoff.dominates": via(lambda f: f(
        importlib.import_module("dpsym.fdp.tradeoff").Gaussian("0.5"),
        importlib.import_module("dpsym.fdp.tradeoff").Gaussian(1), n=8, dps=DPS)),
    # --- dpsym.langevin ----------------------------------------------------------------
    "dpsym.langevin.GridKernel": via(lambda f: f.build(
        0.05, importlib.import_module("dpsym.langevin").abs_subgradient(), cells=40)
        .stationary()),
    "dpsym.langevin.TVEstimate": exempt(RECORD),
    "dpsym.langevin.abs_subgradient": via(lambda f: f(2.0)(np.array([-0.5, 0.0, 0.5]))),
    "dpsym.langevin.binned_tv": call(np.linspace(-0.9, 0.9, 50), np.full(10, 0.1)),
    "dpsym.langevin.projected_gaussian_kl": call("0.1", "-0.2", "0.3"),
    "dpsym.langevin.simulate": via(lambda f: f(
        0.5, 0.05, [1, 5], 20, importlib.import_module("dpsym.langevin").abs_subgradient())),
    # --- dpsym.numerics ----------------------------------------------------------------
    "dpsym.numerics.Phi": exempt(CONTEXT),
    "dpsym.numerics.Phi_inv": exempt(CONTEXT),
    "dpsym.numerics.agreeing_digits": call("0.1234567", "0.1234568"),
    "dpsym.numerics.find_root": exempt(CONTEXT),
    "dpsym.numerics.log1mexp": exempt(CONTEXT),
    "dpsym.numerics.log_sum_signed": exempt(CONTEXT),
    "dpsym.numerics.logsumexp": exempt(CONTEXT),
    "dpsym.numerics.minimize_scalar": exempt(CONTEXT),
    "dpsym.numerics.nstr": call(Fraction(1, 3), 30),
    "dpsym.numerics.phi": exempt(CONTEXT),
    "dpsym.numerics.precision": exempt("a context manager that sets the precision"),
    "dpsym.numerics.round_down": call("0.12345678901234567890123456789012345678901234567"),
    "dpsym.numerics.round_up": call("0.12345678901234567890123456789012345678901234567"),
    "dpsym.numerics.to_mpf": exempt(CONTEXT),
    # --- dpsym.peers -------------------------------------------------------------------
    "dpsym.peers.audit.Finding": exempt(RECORD),
    "dpsym.peers.audit.find_record": exempt(FILES),
    "dpsym.peers.audit.describe": exempt(FILES),
    "dpsym.peers.audit.agreement_summary": exempt(FILES),
    "dpsym.peers.audit.relative_error": call("6.70579741e-4", "6.5007089719e-4"),
    "dpsym.peers.audit.findings": exempt(FILES),
    "dpsym.peers.audit.relative_error_table": exempt(FILES),
    "dpsym.peers.audit.rdp_rows": exempt(FILES),
    "dpsym.peers.audit.pld_rows": exempt(FILES),
    "dpsym.peers.audit.library_versions": exempt(FILES),
    "dpsym.peers.audit.record_counts": exempt(FILES),
    "dpsym.peers.exact.oracle_balle_epsilon": call([2, 4, 8], ["0.1", "0.2", "0.4"], "1e-5"),
    "dpsym.peers.exact.oracle_gdp_delta": call(1, 10),
    "dpsym.peers.exact.oracle_gdp_epsilon": call(2, "1e-5"),
    "dpsym.peers.exact.oracle_log_a": call(0.01, 2.5, 1.5),
    "dpsym.peers.exact.oracle_poisson_rdp": call(0.01, 2.5, 3, 50),
    "dpsym.peers.exact.poisson_clt_mu": call("0.04", "1.5", 2250),
    "dpsym.peers.live.available": exempt("lists installed packages"),
    "dpsym.peers.live.PeerValue": exempt(RECORD),
    "dpsym.peers.live.compare_run": exempt("runs installed peer libraries (float64); "
                                           "dpsym's value in it is checked by rdp_account"),
    "dpsym.peers.pld.PLDBounds": exempt(RECORD),
    "dpsym.peers.pld.auto_h": call(0.01, 1.0, 10),
    "dpsym.peers.pld.pld_delta_bounds": call(0.01, 1.0, 4, 1.0, h=1e-3),
    "dpsym.peers.pld.pld_epsilon_bounds": call(0.01, 1.0, 4, 1e-5, h=1e-3),
    "dpsym.peers.records.load": exempt(FILES),
    "dpsym.peers.records.load_exact": exempt(FILES),
    "dpsym.peers.records.load_grids": exempt(FILES),
    "dpsym.peers.records.case_key": call("rdp", {"q": 0.01, "sigma": 1.0, "alpha": 2.0,
                                                 "steps": 1}),
    # --- dpsym.rdp ---------------------------------------------------------------------
    "dpsym.rdp.conversions.delta_from_rdp": call(8, "0.4", 1),
    "dpsym.rdp.conversions.epsilon_from_rdp": call(8, "0.4", "1e-5"),
    "dpsym.rdp.conversions.optimal_delta": exempt(CONTEXT),
    "dpsym.rdp.conversions.optimize_order": via(lambda f: f(
        importlib.import_module("dpsym.rdp.conversions").zcdp_curve("0.01"), "1e-5",
        search_dps=15, dps=DPS)),
    "dpsym.rdp.conversions.rdp_to_delta": call([2, 4, 8], ["0.1", "0.2", "0.4"], 1),
    "dpsym.rdp.conversions.rdp_to_epsilon": call([2, 4, 8], ["0.1", "0.2", "0.4"], "1e-5"),
    "dpsym.rdp.conversions.zcdp_curve": via(lambda f: f("0.01")(mpf(3), DPS)),
    "dpsym.rdp.conversions.zcdp_curve_epsilon": call("0.01", "1e-5"),
    "dpsym.rdp.conversions.zcdp_to_epsilon": call("0.01", "1e-5"),
    "dpsym.rdp.fixed_size_replacement.a_tilde": call(10, 1000),
    "dpsym.rdp.fixed_size_replacement.binomial_weights": call(10, 1000),
    "dpsym.rdp.fixed_size_replacement.crude_lower_bound_rdp": call(3, 6, 120, "0.0024"),
    "dpsym.rdp.fixed_size_replacement.figure_index_sets": via(lambda f: f("figure1", 20)(3)),
    "dpsym.rdp.fixed_size_replacement.log_F": call(3, 6, 20, 1000),
    "dpsym.rdp.fixed_size_replacement.log_F_bruteforce": call(2, 6, 5, 100),
    "dpsym.rdp.fixed_size_replacement.lower_bound_curve": call([2, 3], 6, 20, 1000),
    "dpsym.rdp.fixed_size_replacement.lower_bound_rdp": call(2, 6, 120, 50000),
    "dpsym.rdp.fixed_size_replacement.q_tilde": call(10, 1000),
    "dpsym.rdp.fixed_size_replacement.symbolic_q_tilde_series": exempt(SYMBOLIC),
    "dpsym.rdp.fixed_size_replacement.upper_bound_blowup_order": call(6, 120, 50000),
    "dpsym.rdp.fixed_size_replacement.upper_bound_floor": call(3, 4, 10, 1000),
    "dpsym.rdp.fixed_size_replacement.upper_bound_log_terms": call(3, 4, 10, 1000, m=3),
    "dpsym.rdp.fixed_size_replacement.upper_bound_rdp": call(3, 4, 10, 1000, m=3),
    "dpsym.rdp.fixed_size_replacement.worst_case_mixture_rdp": call("2.5", 6, 10, 1000),
    "dpsym.rdp.gaussian_mixture.B_tilde": call(6, 2),
    "dpsym.rdp.gaussian_mixture.F": call(2, 6, "0.0024"),
    "dpsym.rdp.gaussian_mixture.F_minus_1": call(2, 6, "0.0024"),
    "dpsym.rdp.gaussian_mixture.H": call(2, 6, "0.0024"),
    "dpsym.rdp.gaussian_mixture.H_minus_1": call("2.5", 6, "0.0024"),
    "dpsym.rdp.gaussian_mixture.H_minus_1_by_definition": call("2.5", 6, "0.0024"),
    "dpsym.rdp.gaussian_mixture.M": call(200, 20),
    "dpsym.rdp.gaussian_mixture.log_H": call(2, 6, "0.0024"),
    "dpsym.rdp.gaussian_mixture.moment_M": exempt(CONTEXT),
    "dpsym.rdp.subsampled_gaussian.log_a_frac": exempt(CONTEXT),
    "dpsym.rdp.subsampled_gaussian.log_a_int": exempt(CONTEXT),
    "dpsym.rdp.subsampled_gaussian.poisson_gaussian_rdp": call("0.01", 2, "2.5", 10),
    "dpsym.rdp.subsampled_gaussian.poisson_gaussian_rdp_curve": call("0.01", 2, [2, 3], 10),
    "dpsym.rdp.taylor.E_tilde": call("2.5", 6, "0.0024", 4),
    "dpsym.rdp.taylor.F_tilde": call("2.5", 6, 3),
    "dpsym.rdp.taylor.R_tilde": call("2.5", 6, "0.0024", 3),
    "dpsym.rdp.taylor.fswor_add_remove_rdp": call(2, 6, "0.0024"),
    "dpsym.rdp.taylor.fswor_replace_one_rdp": call(2, 6, "0.0024", 4),
    "dpsym.rdp.taylor.fswor_replace_one_rdp_float64": call(2.0, 6.0, 0.0024),
    "dpsym.rdp.taylor.h_taylor_bound": call("2.5", 6, "0.0024"),
    "dpsym.rdp.taylor.max_second_derivative": call(6, grid=8),
    "dpsym.rdp.taylor.poisson_replace_one_rdp": call(2, 6, "0.0024", variant="conservative"),
    "dpsym.rdp.wang2019.wang_K": call(3, 6, "0.0024"),
    "dpsym.rdp.wang2019.wang_lower_rdp": call(3, 6, "0.0024"),
    "dpsym.rdp.wang2019.wang_upper_rdp": call("2.5", 6, "0.0024"),
    # --- dpsym.sampling ----------------------------------------------------------------
    "dpsym.sampling.DecompositionCheck": exempt(RECORD),
    "dpsym.sampling.Law": exempt(ALIAS),
    "dpsym.sampling.MonteCarloVariance": exempt(RECORD),
    "dpsym.sampling.batch_size_extremes": call(1000, "0.01", 100),
    "dpsym.sampling.batch_size_law": call("poisson", 6, q=Fraction(1, 3)),
    "dpsym.sampling.binomial_pmf": call(5, 2, Fraction(1, 3)),
    "dpsym.sampling.check_lemma_a1": call(4, 2),
    "dpsym.sampling.check_lemma_d1": call(3, 2),
    "dpsym.sampling.fswor_law": call(4, 2),
    "dpsym.sampling.fswr_law": call(3, 2),
    "dpsym.sampling.lemma_a1_law": call(4, 2),
    "dpsym.sampling.lemma_d1_law": call(3, 2),
    "dpsym.sampling.monte_carlo_variance": call(np.arange(12.0).reshape(6, 2), 3, samples=50),
    "dpsym.sampling.poisson_law": call(3, Fraction(1, 3)),
    "dpsym.sampling.sample_batch": via(lambda f: f("fswor", 10, 3, np.random.default_rng(0))),
    "dpsym.sampling.selection_counts": via(lambda f: f("fswr", 10, 3, 5,
                                                       np.random.default_rng(0))),
    "dpsym.sampling.variance_closed_form": call("fswor", 1.0, 2.0, 10, 3),
    "dpsym.sampling.variance_ratio": call(1.0, 2.0, 10),
    # --- dpsym.shifts ------------------------------------------------------------------
    "dpsym.shifts.cyclic_constrained.WindowSolution": exempt(RECORD),
    "dpsym.shifts.cyclic_constrained.lemma_c11_corrected": call(Fraction(1), Fraction(1, 10),
                                                                4, 3),
    "dpsym.shifts.cyclic_constrained.lemma_c11_printed": call(Fraction(1), Fraction(1, 10), 4,
                                                              3),
    "dpsym.shifts.cyclic_constrained.thm_4_6_window_value": call(Fraction(1), Fraction(1, 10),
                                                                 4),
    "dpsym.shifts.cyclic_constrained.window_budget": call(Fraction(1), Fraction(1, 10), 4, 3),
    "dpsym.shifts.cyclic_constrained.window_optimum": call(Fraction(1), Fraction(1, 10), 4, 3),
    "dpsym.shifts.interpolation.ShiftSolution": exempt(RECORD),
    "dpsym.shifts.interpolation.cyclic_shift_pattern": call(0.1, 4, 3, 2),
    "dpsym.shifts.interpolation.cyclic_shifts": call("0.9", "0.1", 4, 3, 2),
    "dpsym.shifts.interpolation.kkt_certificate": call("0.9", ["0.1"] * 3,
                                                       ["0.05", "0.05", "0.1"]),
    "dpsym.shifts.interpolation.lemma_c6_shifts": call("0.9", "0.1", 5),
    "dpsym.shifts.interpolation.solve_shift_problem": call(0.9, [0.1, 0.1, 0.1]),
    "dpsym.shifts.modulus.Modulus": exempt(RECORD),
    "dpsym.shifts.modulus.StressReport": exempt(RECORD),
    "dpsym.shifts.modulus.convex_smooth": call("0.1", 2),
    "dpsym.shifts.modulus.lipschitz": call("0.1", 2),
    "dpsym.shifts.modulus.lipschitz_tightness": call("0.1", 2, "0.05"),
    "dpsym.shifts.modulus.modulus": via(lambda f: f("lipschitz", eta="0.1", L=2, dps=DPS)),
    "dpsym.shifts.modulus.nonconvex_smooth": call("0.1", 2),
    "dpsym.shifts.modulus.stress_params": call("lipschitz"),
    "dpsym.shifts.modulus.stress_test": call("lipschitz", pairs=50),
    "dpsym.shifts.modulus.strongly_convex_smooth": call("0.1", 1, 2),
    "dpsym.shifts.modulus.strongly_dissipative": call("0.1", 1, 1, 2),
    "dpsym.shifts.modulus.weakly_smooth": call("0.1", "0.5", 2),
    "dpsym.shifts.pabi.NumericSolution": exempt(RECORD),
    "dpsym.shifts.pabi.ShiftProblem": exempt(RECORD),
    "dpsym.shifts.pabi.ShiftSolution": exempt(RECORD),
    "dpsym.shifts.pabi.a_to_u": call(["0.3", "0.3", "0.4"], 1, [1, 1, 1], [0, 0, 0]),
    "dpsym.shifts.pabi.hessian_float": call(np.array([[0.3, 0.3]]), 1.0, [1.0, 1.0, 1.0],
                                            [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
    "dpsym.shifts.pabi.is_feasible": call(["0.3", "0.3", "0.4"], 1, [1, 1, 1], [0, 0, 0]),
    "dpsym.shifts.pabi.objective": call(["0.3", "0.3"], 1, [1, 1, 1], [0, 0, 0], [1, 1, 1]),
    "dpsym.shifts.pabi.objective_float": call(np.array([[0.3, 0.3]]), 1.0, [1.0, 1.0, 1.0],
                                              [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
    "dpsym.shifts.pabi.objective_gradient": call(["0.3", "0.3"], 1, [1, 1, 1], [0, 0, 0],
                                                 [1, 1, 1]),
    "dpsym.shifts.pabi.objective_hessian": call(["0.3", "0.3"], 1, [1, 1, 1], [0, 0, 0],
                                                [1, 1, 1]),
    "dpsym.shifts.pabi.optimal_shifts": call(1, [1, 1, 1], [0, 0, 0], [1, 1, 1]),
    "dpsym.shifts.pabi.optimal_value": call(1, [1] * 4, [0] * 4, [2] * 4),
    "dpsym.shifts.pabi.renyi_bound_from_shifts": call(2, ["0.3", "0.3", "0.4"], [1, 1, 1]),
    "dpsym.shifts.pabi.shifted_distances": call(["0.3", "0.3", "0.4"], 1, [1, 1, 1],
                                                [0, 0, 0]),
    "dpsym.shifts.pabi.solve_numeric": call(1, ["0.9", "0.9", "0.9"], ["0.1", "0.1", "0.1"],
                                            [1, 1, 1], starts=3),
    "dpsym.shifts.pabi.u_to_a": call(["0.3", "0.3"], 1, [1, 1, 1], [0, 0, 0]),
    # --- the foundations' figure module (core) -----------------------------------------
    "dpsym.papers.core.figures.conversion_study": call(steps=(10, 100)),
    "dpsym.papers.core.figures.load_peer_reference": exempt(FILES),
    "dpsym.papers.core.figures.peer_errors": via(lambda f: f(
        {"records": importlib.import_module("dpsym.papers.core.figures")
         .load_peer_reference()["records"][:12]}, dps=DPS)),
    "dpsym.papers.core.peers.relative_error_series": exempt(FILES),
    "dpsym.papers.birrell2024.authors_code.fswr_rdp_as_coded": call(3, 4, 10, 1000, K=10),
    "dpsym.papers.birrell2024.authors_code.authors_code_fallback": call(),
    "dpsym.papers.birrell2024.authors_code.FallbackComparison": exempt(RECORD),
    "dpsym.papers.birrell2024.authors_code.register_claims": exempt(MACHINERY),
    "dpsym.papers.bok2024.authors_code.LongdoubleCheck": exempt(RECORD),
    "dpsym.papers.bok2024.authors_code.prv_longdouble_check": call(),
    "dpsym.papers.bok2024.authors_code.register_claims": exempt(MACHINERY),
    # --- Birrell, Ebrahimi, Behnia & Pacheco 2024 ----------------------------------------
    "dpsym.papers.birrell2024.app_g_epsilons": call(T=1000, orders=(2, 3, 4)),
    "dpsym.papers.birrell2024.eps_over_grid": via(lambda f: f(
        lambda a: importlib.import_module("dpsym.rdp").poisson_gaussian_rdp("0.01", 2, a,
                                                                            dps=DPS),
        [2, 3], 100, "1e-5", dps=DPS)),
    "dpsym.papers.birrell2024.epsilon_consequence": call(T=1000, B=10, D=1000),
    "dpsym.papers.birrell2024.eq_116": call("2.5", 6, 10, 1000),
    "dpsym.papers.birrell2024.eq_117": call(3, 6, 10, 1000),
    "dpsym.papers.birrell2024.eq_120": call(3, 6, 10, "0.01"),
    "dpsym.papers.birrell2024.eq_120_zero": call(6, 120, "0.0024"),
    "dpsym.papers.birrell2024.eq_127": call(3, 6, "0.0024"),
    "dpsym.papers.birrell2024.eq_130": call("2.5", 6, "0.0024"),
    "dpsym.papers.birrell2024.eq_132": call(6, "0.0024"),
    "dpsym.papers.birrell2024.eq_133": call(3, 6, "0.0024"),
    "dpsym.papers.birrell2024.eq_136_closed_form": call(6),
    "dpsym.papers.birrell2024.eq_143": call(1.0, 2.0, 10, 3),
    "dpsym.papers.birrell2024.eq_144": call(1.0, 2.0, 10, 3),
    "dpsym.papers.birrell2024.eq_145": call(1.0, 2.0, 10, 3),
    "dpsym.papers.birrell2024.eq_146": call(1.0, 2.0, 10),
    "dpsym.papers.birrell2024.eq_147": call(10, 3),
    "dpsym.papers.birrell2024.eq_21": call(1.0, 2.0, 10, 3),
    "dpsym.papers.birrell2024.eq_22": call(1.0, 2.0, 10),
    "dpsym.papers.birrell2024.eq_22_montecarlo": call(N=20, B=4, d=3, samples=50),
    "dpsym.papers.birrell2024.eq_41_coefficient": call(3, "2.5", 6),
    "dpsym.papers.birrell2024.eq_44": call(6, 3),
    "dpsym.papers.birrell2024.eq_47": call(6, 2),
    "dpsym.papers.birrell2024.eq_50": call("2.5", 6, "0.0024", 3),
    "dpsym.papers.birrell2024.eq_69": call(6),
    "dpsym.papers.birrell2024.eq_69_closed_form": call(6),
    "dpsym.papers.birrell2024.eq_8": call("2.5", 6, "0.0024"),
    "dpsym.papers.birrell2024.eq_83": call("2.5", 6, 3),
    "dpsym.papers.birrell2024.eq_90": call("2.5", 6, "0.0024", 4),
    "dpsym.papers.birrell2024.eq_96_closed_form": call(6),
    "dpsym.papers.birrell2024.exact_remainder": call("2.5", 6, "0.0024", 3),
    "dpsym.papers.birrell2024.figure_10_runs": exempt(SIMULATION),
    "dpsym.papers.birrell2024.figure_1_values": call(batches=(20,), alphas=(2, 3)),
    "dpsym.papers.birrell2024.figure_2_curves": call(alphas=(1.5, 3.0)),
    "dpsym.papers.birrell2024.figure_3_table": call(deltas=(1e-5,)),
    "dpsym.papers.birrell2024.figure_4_runs": exempt("trains the DP-SGD proxy (float64); "
                                                     "run_dpsgd is checked"),
    "dpsym.papers.birrell2024.figure_5_runs": exempt("trains the DP-SGD proxy (float64); "
                                                     "run_dpsgd is checked"),
    "dpsym.papers.birrell2024.figure_6_curves": call(alphas=(1.5, 3.0)),
    "dpsym.papers.birrell2024.figure_7_curves": call(alphas=(50.0, 51.0)),
    "dpsym.papers.birrell2024.figure_8_values": call(batches=(2, 4)),
    "dpsym.papers.birrell2024.figure_9_curves": call(alphas=(1.5, 3.0)),
    "dpsym.papers.birrell2024.lem_a_1": call(4, 2),
    "dpsym.papers.birrell2024.lem_d_1": call(3, 2),
    "dpsym.papers.birrell2024.synthetic_gradients": call(10, 3, 0.5, 0),
    "dpsym.papers.birrell2024.thm_3_1": call(3, 6, "0.0024"),
    "dpsym.papers.birrell2024.thm_3_2": call("2.5", 6, "0.0024"),
    "dpsym.papers.birrell2024.thm_3_3": call("2.5", 6, "0.0024"),
    "dpsym.papers.birrell2024.thm_3_4": call("2.5", 6, "0.0024"),
    "dpsym.papers.birrell2024.thm_3_5": call("2.5", 6, "0.0024", T=10),
    "dpsym.papers.birrell2024.thm_3_6": call(3, 4, 10, 1000, m=3),
    "dpsym.papers.birrell2024.thm_3_6_blowup_order": call(),
    "dpsym.papers.birrell2024.thm_3_6_floor": call(3, 4, 10, 1000),
    "dpsym.papers.birrell2024.thm_3_6_weights": call(10, 1000),
    "dpsym.papers.birrell2024.thm_3_7": call(3, 6, 10, 1000),
    "dpsym.papers.birrell2024.thm_c_9": call("2.5", 6, "0.0024", variant="conservative"),
    "dpsym.papers.birrell2024.variance_rows": exempt("trains the DP-SGD proxy (float64); "
                                                     "gradient_variance is checked"),
    # --- Bok, Su & Altschuler 2024 --------------------------------------------------------
    "dpsym.papers.bok2024.app_a1_epsilon": call("0.5", "1e-5"),
    "dpsym.papers.bok2024.app_d4_threshold": call(),
    "dpsym.papers.bok2024.cor_5_2": call(1, "0.5"),
    "dpsym.papers.bok2024.cor_5_4": call(1, 1),
    "dpsym.papers.bok2024.coupled_trajectories": call(5, "0.1", "0.5", "0.1", "1"),
    "dpsym.papers.bok2024.e_star_as_printed": call("0.25", "0.04", 10),
    "dpsym.papers.bok2024.figure_1_values": call(),
    "dpsym.papers.bok2024.figure_2_curve": call(),
    "dpsym.papers.bok2024.figure_2_gap": call(1),
    "dpsym.papers.bok2024.figure_6_eps": call(),
    "dpsym.papers.bok2024.figure_7_mu": call(100),
    "dpsym.papers.bok2024.figure_9_values": call(),
    "dpsym.papers.bok2024.lem_2_8": call("0.5", "0.5", 1),
    "dpsym.papers.bok2024.lem_a_3": call(1, 1),
    "dpsym.papers.bok2024.lem_a_3_epsilon": call(1, "1e-5"),
    "dpsym.papers.bok2024.lem_a_4": call(1, 3),
    "dpsym.papers.bok2024.lem_c_11": call("0.01", 1, 10, 5),
    "dpsym.papers.bok2024.mnist_contraction": call("0.01"),
    "dpsym.papers.bok2024.mnist_row": call(50),
    "dpsym.papers.bok2024.mnist_tables_5_6": exempt(SIMULATION),  # also needs the MNIST files
    "dpsym.papers.bok2024.prop_5_1": call(1, "0.5", "0.5", 1),
    "dpsym.papers.bok2024.pure_dp_dominates_gdp": call(1, 1),
    "dpsym.papers.bok2024.q_ratio": call(1, 100, "0.1", 1, "test"),
    "dpsym.papers.bok2024.rem_5_3_montecarlo": call(t=10, n=200),
    "dpsym.papers.bok2024.table_1": call(),
    "dpsym.papers.bok2024.table_3": call(),
    "dpsym.papers.bok2024.table_4": call(),
    "dpsym.papers.bok2024.table_4_noisysgd": exempt("float64 PRV composition (dpsym.fdp.prv, "
                                                    "checked) at the paper's settings: 10 s"),
    "dpsym.papers.bok2024.table_7": call(),
    "dpsym.papers.bok2024.table_8": call(),
    "dpsym.papers.bok2024.table_9": call(),
    "dpsym.papers.bok2024.tables_10_12_cell": call(10, "0.25", "0.04"),
    "dpsym.papers.bok2024.thm_4_1": call(1, 1000, 2, 10),
    "dpsym.papers.bok2024.thm_4_2": call(1, 1000, 2, "0.05", "0.5", 10, 50),
    "dpsym.papers.bok2024.thm_4_2_montecarlo": call(t=5, n=200),
    "dpsym.papers.bok2024.thm_4_3": call(1, 100, 2, "0.1", 1, 1000),
    "dpsym.papers.bok2024.thm_4_3_dominance_threshold": call(1, 100, "0.1", 1),
    "dpsym.papers.bok2024.thm_4_4": call(1, 100, 2, 10),
    "dpsym.papers.bok2024.thm_4_5": call(1, 100, 2, "0.05", "0.5", 10, 10, 5),
    "dpsym.papers.bok2024.thm_4_5_from_c": call("0.99", "0.1", 10, 5),
    "dpsym.papers.bok2024.thm_4_6": call("0.25", 1, 3, "0.04", 1, 10, 100),
    "dpsym.papers.bok2024.thm_4_6_certificate": call("0.01", 1, 10),
    "dpsym.papers.bok2024.thm_4_6_crossing": call("0.25", "0.04", 1, 10),
    "dpsym.papers.bok2024.thm_4_6_exact": call("0.25", 1, 3, "0.04", 1, 10, 41),
    "dpsym.papers.bok2024.thm_c_16_instance": call("0.01", "0.1", 1, 1, 5, cells=101),
    "dpsym.papers.bok2024.thm_c_17": call("0.1", "0.99", 10, 5),
    "dpsym.papers.bok2024.thm_c_5": call("0.9", "0.1", 1, 50),
    "dpsym.papers.bok2024.thm_c_7": call("0.01", 1, 1, 50),
    "dpsym.papers.bok2024.ys22_thm_3_3_rho": call("0.1", "0.99", 10, 5),
    "dpsym.papers.bok2024.ys22_thm_d_6_rho": call("0.1", "0.99", "0.99", 50),
    # --- Bravo, Flores-Mella & Guzman 2025 ------------------------------------------------
    "dpsym.papers.bravo2025.Lemma41": exempt(RECORD),
    "dpsym.papers.bravo2025.MixingExperiment": exempt(RECORD),
    "dpsym.papers.bravo2025.TableRow": exempt(RECORD),
    "dpsym.papers.bravo2025.adaptivity_profile": via(lambda f: f(
        "0.5", [0.5, 0.75], importlib.import_module("dpsym.papers.bravo2025")
        .sqrt_plus_quadratic_gradient(5.0), np.linspace(-1, 1, 11))),
    "dpsym.papers.bravo2025.alpha_star": call("0.01", 4),
    "dpsym.papers.bravo2025.altschuler_talwar_2023": call(1, 1, 1, 10, "0.9"),
    "dpsym.papers.bravo2025.balle_2019": call(1, 1, 1, 10, "0.9"),
    "dpsym.papers.bravo2025.composition_bound": call(2, 1, 1000, 1, 10),
    "dpsym.papers.bravo2025.cor_3_7": call(1, "0.2", 1, 6, "0.04"),
    "dpsym.papers.bravo2025.cor_3_8": call(2, "0.5", 1, 10, "0.9"),
    "dpsym.papers.bravo2025.cor_3_8_ratio": call("0.9", 10),
    "dpsym.papers.bravo2025.cor_3_9": call(2, "0.5", 1, 10, "0.9", "0.1"),
    "dpsym.papers.bravo2025.cor_3_9_lower_estimate": call("1.5", 2),
    "dpsym.papers.bravo2025.cor_3_9_sum": call(Fraction(3, 2), 2),
    "dpsym.papers.bravo2025.cor_3_9_upper_estimate": call("1.5", 2),
    "dpsym.papers.bravo2025.def_a_16": call(3, "0.05", 2),
    "dpsym.papers.bravo2025.eq_10": call(1, 2, 1),
    "dpsym.papers.bravo2025.eq_22": call(1, 1000, 50, "0.1", 1, 1, 1, 4, "1e-5"),
    "dpsym.papers.bravo2025.eq_23_holds": call(1, 1000, 5, "0.1", 2, 1, 1, 4, "1e-5"),
    "dpsym.papers.bravo2025.eq_9": call(2, "0.01", 30, "0.1", form="sum"),
    "dpsym.papers.bravo2025.figure_1_value": call("0.5", "0.01"),
    "dpsym.papers.bravo2025.holder_constant_estimate": via(lambda f: f(
        importlib.import_module("dpsym.papers.bravo2025").sqrt_plus_quadratic_gradient(0.0),
        0.5, np.linspace(-1, 1, 11))),
    "dpsym.papers.bravo2025.lem_3_3": call(2, ["0.3", "0.7"], [1, 1]),
    "dpsym.papers.bravo2025.lem_3_5": call(1, [1, 1, 1], [0, 0, 0], [1, 1, 1]),
    "dpsym.papers.bravo2025.lem_4_1": call(0, 2, 2, Fraction(1, 27)),
    "dpsym.papers.bravo2025.lem_4_1_sweep": call(draws=5),
    "dpsym.papers.bravo2025.lem_a_17": call(3, "0.05", 2),
    "dpsym.papers.bravo2025.lem_a_18": call(2, "0.01", 4),
    "dpsym.papers.bravo2025.lem_a_18_conditions": call(2, "0.01", 4),
    "dpsym.papers.bravo2025.lem_c_1_corrected": call(2, "0.1", 1),
    "dpsym.papers.bravo2025.lem_c_1_counterexample": call(),
    "dpsym.papers.bravo2025.lem_c_1_paper": call(2, "0.1"),
    "dpsym.papers.bravo2025.lower_estimate_crossing": call(2),
    "dpsym.papers.bravo2025.multistart_distances": call("A smooth convex", starts=3),
    "dpsym.papers.bravo2025.naive_schedules": call(1, ["0.9"] * 3, ["0.1"] * 3),
    "dpsym.papers.bravo2025.pinsker": call("0.5"),
    "dpsym.papers.bravo2025.pla_mixing_experiment": call(),
    "dpsym.papers.bravo2025.prop_b_1": call(),
    "dpsym.papers.bravo2025.rem_5_3": call(2, 1, 1000, 2, "0.01", 1, 2, "0.5", 100),
    "dpsym.papers.bravo2025.rem_5_3_V": call(1, 2, "0.5", 1000, 1, 1),
    "dpsym.papers.bravo2025.solve_instance": call("A smooth convex"),
    "dpsym.papers.bravo2025.sqrt_plus_quadratic_gradient": via(
        lambda f: f(5.0)(np.array([-0.5, 0.0, 0.5]))),
    "dpsym.papers.bravo2025.table_1": call(),
    "dpsym.papers.bravo2025.thm_3_4": call(4, 1, [1, 1], [1, 1], [1, 1]),
    "dpsym.papers.bravo2025.thm_4_2": call(0, 2, 2, Fraction(1, 27), "0.25"),
    "dpsym.papers.bravo2025.thm_4_2_tv_bound": call(10, 2, "0.04"),
    "dpsym.papers.bravo2025.thm_5_2": call(2, 1, 1000, 10, "0.01", 2, 1, 2, "0.5"),
    "dpsym.papers.bravo2025.thm_5_2_exact_sampling": call(2, 1, 1000, 1, 1, "0.5", 1, 2, "0.5",
                                                          7),
    "dpsym.papers.bravo2025.thm_5_2_tbar": call(1, 1000, "0.001", 1),
    "dpsym.papers.bravo2025.thm_5_4": call(2, 1, 1000, 50, "0.1", 1, 1, 1, Tbar=4),
    "dpsym.papers.bravo2025.thm_5_4_alpha_star": call(1, 1000, 5, 2),
    "dpsym.papers.bravo2025.thm_5_4_pabi_term": call(2, 1, "0.1", 1, 1, 2),
    "dpsym.papers.bravo2025.thm_5_4_tbar_min": call("0.1", 1),
    # --- no docstring example and no ledger call: small valid inputs ------------------------
    "dpsym.aggregation.epochs.epoch_sum": call(3, 4, Fraction(1, 2)),
    "dpsym.aggregation.tree.Node": exempt(RECORD),
    "dpsym.aggregation.epochs.worst_node_weight": exempt(GENERIC),
    "dpsym.aggregation.tree.prefix_noise_variance": exempt(GENERIC),
    "dpsym.rdp.gaussian_mixture.gaussian_ratio_minus_1": exempt(GENERIC),
    "dpsym.aggregation.tree.node_count": call(8),
    "dpsym.papers.birrell2024.eq_96": call(2),
    "dpsym.papers.birrell2024.integer_orders_eps": via(lambda f: f(
        lambda a: importlib.import_module("dpsym.rdp").poisson_gaussian_rdp("0.01", 1, a,
                                                                             dps=DPS),
        [2, 3, 4, 8], 100, "1e-5", dps=DPS)),
    "dpsym.papers.bravo2025.renyi_vs_T": call([1, 2, 5]),
    "dpsym.papers.liang2025.closed_forms.combined_rho": call(
        T=10, n=8, b=2, eta="0.2", C=2, sigma=4, L=1, D=1),
    "dpsym.papers.liang2025.closed_forms.dp_epsilon_numpy": exempt(FLOAT64),
    "dpsym.papers.liang2025.closed_forms.gdp_mu": call("0.5"),
    "dpsym.papers.liang2025.closed_forms.n2_alpha_max": call(
        n=100, b=10, C=1, sigma=2, beta="0.5"),
    "dpsym.papers.liang2025.closed_forms.numpy_fn": exempt(FLOAT64),
    "dpsym.papers.liang2025.eq_47": call(alpha="1.1", n=8, b=2, eta="0.2", C=2, sigma=4,
                                         beta="0.5", L=1, D=1, a=["1.2"]),
    "dpsym.papers.liang2025.experiments.eq_24": call(0.1, 0.2),
    "dpsym.papers.liang2025.lem_2_4": call(alpha=10, eps="0.5", delta="1e-5"),
    "dpsym.papers.liang2025.sgm_admissible": call(alpha=2, n=100, b=10, C=1, sigma=2,
                                                  beta="0.5"),
    "dpsym.papers.tran2022.alg_1": exempt(SIMULATION),
    "dpsym.papers.tran2022.alg_2": exempt(SIMULATION),
    "dpsym.papers.tran2022.lem_5": call(1, "0.1", 100, 1, "0.5"),
    "dpsym.papers.tran2022.thm_6": call(1, 1, 1, 1000, 1, "1e-5", 10),
    "dpsym.papers.tran2022.thm_9": call(1, 1, 1, 1000, 1, "1e-5", 10),
    "dpsym.rdp.gaussian_mixture.M_fixed_dps": call(2, 4),
    "dpsym.rdp.gaussian_mixture.b_tilde_from": exempt(
        "generic over its arithmetic: computes with the m(k) and sqrt it is given (mpmath, "
        "sympy or float64); B~ itself is checked through its callers"),
    # --- long float64 simulations that repeat a checked computation ------------------------
    "dpsym.papers.liang2025.experiments.audit_results": exempt(
        "audit_with_bounds (checked) on the chapter's two configurations"),
    "dpsym.papers.liang2025.experiments.utility_results": exempt(
        "utility_vs_D (checked) at two noise levels, float64"),
    "dpsym.experiments.membership_audit.audit": exempt(SIMULATION),
    "dpsym.experiments.membership_audit.run_losses": exempt(SIMULATION),
    # --- added with the certified accountant, Bok et al. part 2 and the arb helpers ------
    "dpsym.accounting.accountants.RdpAccountant": via(lambda f: f(dps=DPS).compose(
        _poisson_run()).get_epsilon("1e-5").value),
    "dpsym.accounting.accountants.GdpAccountant": via(lambda f: f().compose(
        _poisson_run()).get_epsilon("1e-5").value),
    "dpsym.accounting.accountants.PldAccountant": via(lambda f: f(width=0.05).compose(
        _poisson_run()).get_epsilon("1e-5").upper),
    "dpsym.accounting.calibrate.calibrate_noise": via(lambda f: f(
        lambda s: _poisson_run(sigma=s), 2, "1e-5", sigma_step="0.05").epsilon),
    "dpsym.accounting.events.DpEvent": exempt(RECORD),
    "dpsym.accounting.events.from_dp_accounting": exempt(
        "an adapter from dp-accounting's event objects (optional extra) to dpsym's frozen "
        "events: no arithmetic"),
    "dpsym.balls.lower_mpf": exempt(CONTEXT),
    "dpsym.balls.arb_precision": exempt(CONTEXT),
    "dpsym.numerics.ncdf": exempt(CONTEXT),
    "dpsym.fdp.neyman_pearson.mixture_delta": exempt(CONTEXT),
    "dpsym.balls.upper_mpf": exempt(CONTEXT),
    "dpsym.balls.mpf_of_exact": exempt(CONTEXT),
    "dpsym.balls.ncdf": exempt(
        "an arb ball function (python-flint): its precision is arb's, set by its callers, and "
        "no mpmath context reaches it"),
    "dpsym.rdp.arb_series.PoissonSeriesTables": exempt(
        "shared arb tables of the series at an explicit precision: no mpmath context reaches "
        "them; poisson_gaussian_rdp, which uses them, is checked"),
    "dpsym.rdp.arb_series.poisson_log_moment": call("0.01", "1.5", "3.5", dps=DPS),
    "dpsym.pld.pairs.LossPair": exempt(
        "the protocol of a dominating pair (arb tails): its implementations are checked "
        "through certify_epsilon"),
    "dpsym.experiments.private_training.accuracy": exempt(SIMULATION),
    "dpsym.experiments.private_training.clipped_gradient_sum": exempt(SIMULATION),
    "dpsym.experiments.private_training.train": exempt(SIMULATION),
    "dpsym.experiments.private_training.train_runs": exempt(SIMULATION),
    "dpsym.experiments.private_training.prepare_features": exempt(SIMULATION),
    "dpsym.experiments.private_training.load_mnist_idx": exempt(FILES),
    "dpsym.papers.bok2024.rem_a_8_tv": call(5),
    "dpsym.papers.bok2024.thm_4_8_fact_c": call("0.25", "2.5", "0.5"),
    "dpsym.papers.bok2024.noisysgd_scenario": exempt(ARB),
    "dpsym.papers.bok2024.noisysgd_delta_interval": exempt(ARB),
    "dpsym.papers.bok2024.noisysgd_delta_profile": exempt(FLOAT64),
    "dpsym.papers.bok2024.width_sweep": exempt(ARB),
    "dpsym.papers.bok2024.best_tau": exempt(ARB),
    "dpsym.papers.bok2024.convergence_rows": exempt(ARB),
}

#: Leaks in files this change does not own: (callable -> where), strict xfail until fixed.
KNOWN_LEAKS: dict[str, str] = {}

#: Callables that take more than ~2.5 s for the two calls (measured on the 2-core machine).
#: Each run checks one shard of them (``DPSYM_CONTRACT_SHARD``: a number, or ``all``;
#: default the day of the year), so every one is checked within HEAVY_SHARDS days and the
#: test stays within its time budget; the light ones are checked on every run.
HEAVY = (
    "dpsym.accounting.accountants.rdp_account",
    "dpsym.experiments.dpsgd_proxy.gradient_variance",
    "dpsym.fdp.tradeoff.check_tradeoff",
    "dpsym.papers.birrell2024.epsilon_consequence",
    "dpsym.papers.birrell2024.eq_116",
    "dpsym.papers.birrell2024.eq_8",
    "dpsym.papers.birrell2024.exact_remainder",
    "dpsym.papers.birrell2024.figure_3_table",
    "dpsym.papers.birrell2024.figure_9_curves",
    "dpsym.papers.bok2024.coupled_trajectories",
    "dpsym.papers.bok2024.figure_6_eps",
    "dpsym.papers.bok2024.figure_9_values",
    "dpsym.papers.bok2024.mnist_row",
    "dpsym.papers.bok2024.table_1",
    "dpsym.papers.bok2024.table_3",
    "dpsym.papers.bok2024.table_4",
    "dpsym.papers.bravo2025.def_a_16",
    "dpsym.papers.bravo2025.pla_mixing_experiment",
    "dpsym.papers.bravo2025.table_1",
    "dpsym.papers.core.figures.conversion_study",
    "dpsym.rdp.fixed_size_replacement.worst_case_mixture_rdp",
    "dpsym.rdp.gaussian_mixture.F",
    "dpsym.rdp.gaussian_mixture.F_minus_1",
    "dpsym.rdp.gaussian_mixture.H_minus_1",
    "dpsym.rdp.gaussian_mixture.H_minus_1_by_definition",
    "dpsym.rdp.subsampled_gaussian.poisson_gaussian_rdp",
)
HEAVY_SHARDS = 8


def _shard() -> int | None:
    """The heavy shard this run checks (None: all of them)."""
    import datetime
    import os

    v = os.environ.get("DPSYM_CONTRACT_SHARD", "")
    if v == "all":
        return None
    if v:
        return int(v) % HEAVY_SHARDS
    return datetime.date.today().timetuple().tm_yday % HEAVY_SHARDS


_MACHINERY_MODULES = ("dpsym.claims", "dpsym.figures", "dpsym.report", "dpsym.cli",
                      "dpsym.papers.registry", "dpsym.errors")


# --- enumeration ----------------------------------------------------------------------


def _public() -> dict[str, Any]:
    """Every public callable, keyed by where a reader finds it.

    Paper statements are keyed by their paper package (``dpsym.papers.bok2024.thm_4_2``),
    so moving one between section modules keeps its key; everything else by the module
    that defines it.  Re-exports of one object count once.
    """
    found: dict[int, tuple[Any, list[tuple[str, str]]]] = {}
    for m in pkgutil.walk_packages(dpsym.__path__, "dpsym."):
        if m.name.endswith("__main__"):
            continue
        mod = importlib.import_module(m.name)
        for name in getattr(mod, "__all__", None) or ():
            obj = getattr(mod, name, None)
            if callable(obj):
                found.setdefault(id(obj), (obj, []))[1].append((m.name, name))
    for p in registry.PAPERS:
        pkg = importlib.import_module(p.package)
        for name, obj in vars(pkg).items():
            if (not name.startswith("_") and callable(obj)
                    and (getattr(obj, "__module__", "") or "").startswith(p.package + ".")):
                found.setdefault(id(obj), (obj, []))[1].append((p.package, name))
    out = {}
    for obj, names in found.values():
        mod = getattr(obj, "__module__", "") or ""
        papers = sorted(f"{m}.{n}" for m, n in names if m.count(".") == 2
                        and m.startswith("dpsym.papers.") and m != "dpsym.papers.registry")
        if papers and mod.startswith("dpsym.papers."):
            key = papers[0]
        elif mod.startswith("dpsym"):
            key = f"{mod}.{getattr(obj, '__qualname__', names[0][1])}"
        else:
            key = f"{names[0][0]}.{names[0][1]}"
        out[key] = obj
    return out


PUBLIC = _public()
RECORDED: dict[str, dict] = {}


def _auto(key: str, obj: Any) -> Exempt | None:
    """Exemptions derived from the signature or the module, not listed by hand."""
    if key.startswith(_MACHINERY_MODULES):
        return exempt(MACHINERY)
    if key.startswith("dpsym.ledger."):
        return exempt(TRANSITIONAL)
    try:
        ret = str(inspect.signature(obj).return_annotation)
    except (TypeError, ValueError):
        return None
    if ret in ("Figure", "'Figure'"):
        return exempt(FIGURE)
    if (any(t in ret for t in ("sp.Expr", "Derivation", "LemmaC", "sp.Symbol"))
            and "mpf" not in ret):
        return exempt(SYMBOLIC)
    return None


# --- cases recorded from the docstring examples ------------------------------------------

#: The arguments of the first call each public callable receives while dpsym's docstring
#: examples and ledger checks run (``python tests/test_precision_contract.py --record``
#: rewrites it): a valid, documented, fast call for every callable that has no
#: hand-written case.  A callable added later without a case fails
#: ``test_every_public_callable_has_a_case``: record again.
RECORDED_PATH = Path(__file__).resolve().parent / "reference" / "precision_contract_cases.pickle"


def record_cases() -> dict[str, dict]:
    """Run every docstring example of dpsym and every ledger check with each public callable
    wrapped (in every dpsym module that holds it) by a recorder; keep, for each, the first
    call whose arguments pickle and whose re-run at ``dps = DPS`` finishes (with its time,
    so the slow ones are sharded)."""
    import doctest
    import io
    import pickle
    import sys
    import time

    targets: dict[int, tuple[Any, list[str]]] = {}
    for key, obj in PUBLIC.items():
        if key in CASES or _auto(key, obj) is not None or isinstance(obj, type):
            continue
        targets.setdefault(id(obj), (obj, []))[1].append(key)
    seen: dict[str, dict] = {}

    def recording(obj: Any, keys: list[str]) -> Any:
        @functools.wraps(obj)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not all(k in seen for k in keys):
                try:
                    blob = pickle.dumps((args, kwargs))
                except Exception:  # a lambda or a generator: not replayable
                    blob = None
                if blob is not None:
                    for k in keys:
                        seen.setdefault(k, {"blob": blob})
            return obj(*args, **kwargs)

        return wrapper

    for m in pkgutil.walk_packages(dpsym.__path__, "dpsym."):
        if not m.name.endswith("__main__"):
            importlib.import_module(m.name)
    wrappers = {i: recording(obj, keys) for i, (obj, keys) in targets.items()}
    patched = []
    for name, mod in list(sys.modules.items()):
        if not name.startswith("dpsym") or mod is None:
            continue
        for attr, value in list(vars(mod).items()):
            if id(value) in wrappers and value is targets[id(value)][0]:
                setattr(mod, attr, wrappers[id(value)])
                patched.append((mod, attr, value))
    try:
        finder = doctest.DocTestFinder()
        runner = doctest.DocTestRunner(
            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        for m in pkgutil.walk_packages(dpsym.__path__, "dpsym."):
            if m.name.endswith("__main__"):
                continue
            mod = sys.modules[m.name]
            for test in finder.find(mod, m.name):
                runner.run(test, out=io.StringIO().write)
        # Then the ledger: its checks call the statements with the papers' own parameters.
        from dpsym.claims import all_claims

        for claim in all_claims():
            with contextlib.suppress(Exception):  # a failing claim is the ledger's business
                claim.check(20)
    finally:
        for mod, attr, value in patched:
            setattr(mod, attr, value)
    out = {}
    for key, rec in sorted(seen.items()):
        args, kwargs = pickle.loads(rec["blob"])
        start = time.perf_counter()
        try:
            _run_under(CONTEXTS[-1], PUBLIC[key],
                       Call(args, {k: v for k, v in kwargs.items() if k != "dps"}))
        except Exception as exc:
            print(f"skipped {key}: {type(exc).__name__}: {exc}"[:200])
            continue
        out[key] = {"args": args, "kwargs": kwargs,
                    "seconds": round(time.perf_counter() - start, 3)}
    return out


def _load_recorded() -> dict[str, dict]:
    import pickle

    if not RECORDED_PATH.exists():
        return {}
    with RECORDED_PATH.open("rb") as fh:
        return pickle.load(fh)


def _recorded_case(key: str) -> Call | None:
    rec = RECORDED.get(key)
    if rec is None:
        return None
    kwargs = {k: v for k, v in rec["kwargs"].items() if k != "dps"}
    return Call(tuple(rec["args"]), kwargs)


def _all_defaults(obj: Any) -> Call | None:
    """``call()`` for a function whose every parameter has a default (its documented
    setting)."""
    if isinstance(obj, type):
        return None
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return None
    if all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
           for p in params):
        return call()
    return None


def _case(key: str) -> Call | Exempt | None:
    obj = PUBLIC[key]
    if key in CASES:
        return CASES[key]
    auto = _auto(key, obj)
    if auto is not None:
        return auto
    if isinstance(obj, type) and dataclasses.is_dataclass(obj):
        return exempt(RECORD)
    return _recorded_case(key) or _all_defaults(obj)


# --- comparison -----------------------------------------------------------------------


#: Fields that record the run, not its result: CPU timings differ from run to run.
TIMING_FIELDS = ("seconds", "cpu_seconds")


def _same(a: Any, b: Any, path: str = "result") -> list[str]:
    """Differences between the results of the two contexts ([] when they agree)."""
    if path.rstrip("]'").rsplit(".", 1)[-1].rsplit("'", 1)[-1] in TIMING_FIELDS:
        return []
    if type(a).__name__ == "arb" and type(b).__name__ == "arb":  # python-flint balls
        return [] if a.mid_rad_10exp() == b.mid_rad_10exp() else [
            f"{path}: {a.str(20, radius=True)} vs {b.str(20, radius=True)}"]
    if isinstance(a, mpf) and isinstance(b, mpf):
        if a == b or (mpmath.isnan(a) and mpmath.isnan(b)):
            return []
        d = agreeing_digits(a, b)
        return [] if d >= DPS else [f"{path}: {mpmath.nstr(a, 25)} vs {mpmath.nstr(b, 25)} "
                                    f"({d} digits)"]
    if isinstance(a, mpmath.matrix) and isinstance(b, mpmath.matrix):
        return _same(a.tolist(), b.tolist(), path)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype == object:
            return _same(a.tolist(), b.tolist(), path)
        ok = a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
        return [] if ok else [f"{path}: arrays differ"]
    if isinstance(a, float | np.floating) and isinstance(b, float | np.floating):
        return [] if a == b or (a != a and b != b) else [f"{path}: {a!r} vs {b!r}"]
    if isinstance(a, sp.Basic | sp.MatrixBase) or isinstance(b, sp.Basic | sp.MatrixBase):
        return [] if a == b else [f"{path}: sympy results differ"]
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        if type(a) is not type(b):
            return [f"{path}: types differ"]
        out = []
        for f in dataclasses.fields(a):
            out += _same(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return [f"{path}: keys differ"]
        out = []
        for k in a:
            out += _same(a[k], b[k], f"{path}[{k!r}]")
        return out
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            return [f"{path}: lengths differ"]
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += _same(x, y, f"{path}[{i}]")
        return out
    if callable(a) and callable(b):
        return [] if getattr(a, "__qualname__", a) == getattr(b, "__qualname__", b) else [
            f"{path}: different callables"]
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def _numeric_caches() -> list[Any]:
    """The memoised dpsym functions that take ``dps`` (numeric ones: a cached result could
    hide a leak); symbolic caches are kept, they hold exact expressions."""
    import sys

    out = []
    for name, mod in list(sys.modules.items()):
        if not name.startswith("dpsym") or mod is None:
            continue
        for obj in vars(mod).values():
            if isinstance(obj, functools._lru_cache_wrapper):
                try:
                    params = inspect.signature(obj).parameters
                except (TypeError, ValueError):
                    continue
                if "dps" in params:
                    out.append(obj)
    return out


def _clear_caches(obj: Any) -> None:
    """Forget memoised numeric results (and the callable's own), so that the second
    context really recomputes."""
    for c in _numeric_caches():
        c.cache_clear()
    if isinstance(obj, functools._lru_cache_wrapper):
        obj.cache_clear()


def _invoke(obj: Any, case: Call) -> Any:
    if case.via is not None:
        return case.via(obj)
    kwargs = dict(case.kwargs)
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        params = {}
    if "dps" in params and "dps" not in kwargs:
        kwargs["dps"] = DPS
    return obj(*case.args, **kwargs)


def _run_under(ctx: int, obj: Any, case: Call) -> Any:
    _clear_caches(obj)
    with mpmath.workdps(ctx):
        return _invoke(obj, case)


RECORDED.update(_load_recorded())
CHECKED = sorted(k for k in PUBLIC if isinstance(_case(k), Call))
#: The heavy ones: the hand-listed and the recorded cases that took more than a second
#: (three contexts make that three), in one fixed order for the shards.
HEAVY_ALL = sorted(set(HEAVY) | {k for k, r in RECORDED.items()
                                 if r["seconds"] > 1.0 and k in CHECKED and k not in CASES})


def _param(key: str) -> Any:
    marks = []
    shard = _shard()
    if key in HEAVY_ALL and shard is not None and HEAVY_ALL.index(key) % HEAVY_SHARDS != shard:
        marks.append(pytest.mark.skip(reason=f"heavy: checked in shard "
                                             f"{HEAVY_ALL.index(key) % HEAVY_SHARDS} of "
                                             f"{HEAVY_SHARDS} (DPSYM_CONTRACT_SHARD=all runs "
                                             f"every one)"))
    if key in KNOWN_LEAKS:
        marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_LEAKS[key]))
    return pytest.param(key, id=key, marks=marks)


# --- the tests ------------------------------------------------------------------------


def test_every_public_callable_has_a_case():
    missing = sorted(k for k in PUBLIC if _case(k) is None)
    assert not missing, ("public callables without a precision-contract case; add "
                         "call(...) or exempt(reason) to CASES: " + ", ".join(missing))


def test_known_leaks_are_checked():
    """A known leak must name a callable that is really checked (not exempt, not gone)."""
    assert set(KNOWN_LEAKS) <= set(CHECKED)


def test_heavy_ones_are_checked_callables():
    assert set(HEAVY) <= set(CHECKED), set(HEAVY) - set(CHECKED)


def test_exemptions_are_few_and_reasoned():
    exempted = {k: _case(k) for k in PUBLIC if isinstance(_case(k), Exempt)}
    assert all(e.reason for e in exempted.values())
    # Every statement of a paper that returns a number is checked, not exempted; only
    # figures, records and long float64 simulations may be.
    allowed = (FIGURE, RECORD, MACHINERY, TRANSITIONAL, FILES, SYMBOLIC, SIMULATION,
               FLOAT64, ARB)
    papers = {k: e for k, e in exempted.items() if k.startswith("dpsym.papers.")
              and not k.startswith("dpsym.papers.core") and e.reason not in allowed}
    assert len(papers) <= 6, papers


@pytest.mark.parametrize("key", [_param(k) for k in CHECKED])
def test_result_independent_of_global_precision(key):
    obj, case = PUBLIC[key], _case(key)
    high = _run_under(CONTEXTS[-1], obj, case)
    for ctx in CONTEXTS[:-1]:
        diffs = _same(_run_under(ctx, obj, case), high)
        assert not diffs, (f"{key} depends on mpmath's global precision (mp.dps = {ctx} "
                           f"against {CONTEXTS[-1]}): " + "; ".join(diffs[:4]))


def test_the_check_catches_a_leak():
    """The comparison is not vacuous: a function that forms a product at the caller's
    precision before entering its own is caught."""
    from dpsym.numerics import precision, round_up, to_mpf

    def leaky(x: str, dps: int = 50) -> mpf:
        v = to_mpf(x) * 3  # formed at the caller's precision
        with precision(dps + 10):
            out = v / 7
        return round_up(out, dps)

    low = _run_under(15, leaky, call("0.1"))
    high = _run_under(100, leaky, call("0.1"))
    assert _same(low, high)


def test_thm_4_2_exact_value():
    """Issue example: thm_4_2(1, 1000, 2, 0.05, 0.5, 10, 50) at dps 40 under global precision
    5, 15 and 100 must carry 40 correct digits; the exact value by an independent route (the closed
    form of Thm 4.2 with c from Lemma 2.8, evaluated at 80 digits)."""
    from dpsym.papers.bok2024 import thm_4_2

    with mpmath.workdps(80):
        eta, m, M = mpf("0.05"), mpf("0.5"), mpf(10)
        c = max(abs(1 - eta * m), abs(1 - eta * M))
        t = 50
        exact = mpmath.sqrt((1 - c**t) / (1 + c**t) * (1 + c) / (1 - c)) * 1 / (1000 * 2)
    for ctx in CONTEXTS:
        with mpmath.workdps(ctx):
            got = thm_4_2(1, 1000, 2, "0.05", "0.5", 10, 50, dps=40)
        # Before the fix (products formed after the precision block): 6 digits at
        # mp.dps = 5, 17 at mp.dps = 15 (0.0033258861070383052734 against ...2987).
        assert agreeing_digits(got, exact) >= 40, (ctx, got)


if __name__ == "__main__":
    import pickle
    import sys

    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_precision_contract.py --record")
    cases = record_cases()
    with RECORDED_PATH.open("wb") as fh:
        pickle.dump(cases, fh, protocol=4)
    print(f"recorded {len(cases)} cases into {RECORDED_PATH}")
