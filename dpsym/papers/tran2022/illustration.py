"""Tran & Cutkosky 2022: a numerical illustration (the paper has no experiments).

Two honest pieces:

* :func:`noise_vs_N`: the *exact* standard deviation of the momentum estimate's noise,
  ``sqrt(E||m_hat_T - m_T||^2)``, for Algorithms 1 and 2 at the paper's parameters (Thms 6 and
  9, delta = N^-2), computed from the tree's coefficient maps (no sampling), with the fitted
  log-log slope next to the slope of the paper's own bound at the same N and its limit
  (:func:`dpsym.papers.tran2022.rates.log_derivative`);
* :func:`smoke_run`: seeded runs of Algorithms 1 and 2 on a synthetic non-convex robust
  regression, f(w, (a, b)) = phi(a^T w - b) with phi(u) = u^2 / (1 + u^2) and ||a|| = 1, whose
  Lipschitz and smoothness constants are derived by sympy (:func:`robust_loss_constants`).
  Algorithm 2 runs with one permutation for all epochs, so that Lemma 17 holds; the run
  reports how exactly Algorithm 4 rebuilt the momentum.  At these sizes the privacy noise
  dominates the optimisation: the runs check the machinery, not the rates.

Float64 is used for the sweeps and simulations; the coefficient maps are the same functions
the mpmath statements use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import sympy as sp

from dpsym.aggregation import prefix_noise_variance
from dpsym.numerics import nstr
from dpsym.papers.registry import cite
from dpsym.papers.tran2022 import dp_nsgd, rates
from dpsym.papers.tran2022 import sensitivity_reduced as sr

__all__ = [
    "NoiseSweep",
    "RobustRegression",
    "SmokeRun",
    "noise_vs_N",
    "paper_sweep",
    "robust_loss_constants",
    "robust_regression",
    "smoke_run",
]

#: The paper's parameters for the sweep: d = 10, eps = 1, delta = N^-2, G = L = 1.
SWEEP = {"d": 10, "eps": 1, "G": 1, "L": 1, "Ns": (64, 128, 256, 512, 1024, 2048)}


@dataclass(frozen=True)
class NoiseSweep:
    """Exact noise std of m_hat_T against N, per algorithm."""

    Ns: tuple[int, ...]
    T1: tuple[int, ...]
    T2: tuple[int, ...]
    std1: tuple[float, ...]
    std2: tuple[float, ...]
    slope1: float                  # least-squares slope of log std1 on log N
    slope2: float
    bound1: tuple[float, ...]        # Lemma 12 (exact V) at the same parameters
    bound2: tuple[float, ...]        # Lemma 7 at the same parameters
    bound_fit1: float                # least-squares slope of log bound1 on log N
    bound_fit2: float
    bound_slope1: tuple[float, ...]  # local slope of the bound's rate-setting term at each N
    bound_slope2: tuple[float, ...]
    limit1: sp.Expr                  # -1/2
    limit2: sp.Expr                  # -2/3


def _alg1_std(N: int, d: int, eps: float, G: float) -> tuple[int, float, float]:
    delta = Fraction(1, N * N)  # exact: converted by each callee at its own precision
    p = dp_nsgd.thm_6_parameters(N, eps, delta, d, dps=20)
    T = int(p.T)  # exact floor (T > 0); mpmath.floor rounds to the working precision
    alpha = float(p.alpha) * float(p.T) / T  # the formula's alpha at the integer T
    V = dp_nsgd.alg_1_V(N, T)
    s = float(dp_nsgd.alg_1_node_std(alpha, G, p.sigma, V, dps=20))
    var = prefix_noise_variance(T, 1 - alpha, s * s)
    bound = float(dp_nsgd.lem_12(alpha, G, p.sigma, d, V, T, dps=20))
    return T, float(np.sqrt(d * var)), bound


def _alg2_std(N: int, d: int, eps: float, G: float, L: float) -> tuple[int, float, float]:
    delta = Fraction(1, N * N)  # exact: converted by each callee at its own precision
    T = int(sr.thm_9_parameters(N, eps, d, dps=20).T)  # exact floor (T > 0)
    p = sr.thm_9_parameters(N, eps, d, T=T, dps=20)
    sigma = sr.thm_8_sigma(eps, delta, dps=20)
    var = sr.alg_2_noise_variance(T, N, T, p.alpha, p.gamma, sigma, G, L, p.eta, float64=True)
    bound = float(sr.lem_7(G, L, p.alpha, p.eta, d, T, N, eps, delta, dps=20))
    return T, float(np.sqrt(d * var)), bound


def noise_vs_N(Ns: Sequence[int] = SWEEP["Ns"], d: int = SWEEP["d"], eps: float = SWEEP["eps"],
               G: float = SWEEP["G"], L: float = SWEEP["L"]) -> NoiseSweep:
    """The exact noise sweep at the paper's parameters (T rounded down, alpha recomputed at it)."""
    r1 = [_alg1_std(n, d, eps, G) for n in Ns]
    r2 = [_alg2_std(n, d, eps, G, L) for n in Ns]
    x = np.log(np.array(Ns, float))

    def fit(ys: list[float]) -> float:
        return float(np.polyfit(x, np.log(ys), 1)[0])
    ld1, ld2 = _log_derivatives()
    a, b = sp.symbols("a b", positive=True)
    f1 = sp.lambdify((a, b), ld1.slope)
    f2 = sp.lambdify((rates.N, rates.eps, rates.d), ld2.slope)
    bs1 = tuple(float(f1(1 / np.log(n), 1 / np.log(r[0]))) for n, r in zip(Ns, r1, strict=True))
    bs2 = tuple(float(f2(n, eps, d)) for n in Ns)
    col = [tuple(r[k] for r in rr) for rr in (r1, r2) for k in range(3)]
    return NoiseSweep(tuple(Ns), col[0], col[3], col[1], col[4], fit(col[1]), fit(col[4]),
                      col[2], col[5], fit(col[2]), fit(col[5]), bs1, bs2, ld1.limit, ld2.limit)


@cache
def paper_sweep() -> NoiseSweep:
    """:func:`noise_vs_N` at the paper's parameters (:data:`SWEEP`), computed once per process."""
    return noise_vs_N()


@cache
def _log_derivatives() -> tuple[rates.LogDerivative, rates.LogDerivative]:
    return rates.log_derivative(1), rates.log_derivative(2)


# --- the robust regression ----------------------------------------------------------------

@cache
def robust_loss_constants() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """(phi, G, L) for phi(u) = u^2/(1+u^2): G = sup |phi'| = 3 sqrt(3)/8, L = sup |phi''| = 2
    (sympy: critical points of phi' and phi''), so f(w, (a, b)) = phi(a^T w - b) with ||a|| = 1
    is G-Lipschitz and L-smooth in w."""
    u = sp.Symbol("u", real=True)
    phi = u**2 / (1 + u**2)
    d1, d2 = sp.diff(phi, u), sp.diff(phi, u, 2)

    def sup_abs(f: sp.Expr) -> sp.Expr:
        crit = sp.solve(sp.diff(f, u), u)
        cands = [sp.Abs(f.subs(u, c)) for c in crit] + [sp.Abs(sp.limit(f, u, sp.oo))]
        return sp.nsimplify(sp.Max(*[sp.simplify(c) for c in cands]))

    return phi, sp.simplify(sup_abs(d1)), sp.simplify(sup_abs(d2))


@dataclass(frozen=True)
class RobustRegression:
    """Records (a_i, b_i), ||a_i|| = 1, with per-record and full gradients (float64)."""

    A: np.ndarray
    b: np.ndarray
    G: float
    L: float
    _dphi: Callable[[np.ndarray], np.ndarray]

    @property
    def N(self) -> int:
        return len(self.b)

    def grad(self, w: np.ndarray, i: int) -> np.ndarray:
        return float(self._dphi(self.A[i] @ w - self.b[i])) * self.A[i]

    def full_grad(self, w: np.ndarray) -> np.ndarray:
        return (self._dphi(self.A @ w - self.b)[:, None] * self.A).mean(axis=0)


def robust_regression(N: int, d: int, seed: int = 0, outliers: float = 0.2) -> RobustRegression:
    """Synthetic data: a_i uniform on the sphere, b_i = a_i^T w* + 0.1 noise, a fraction of
    outliers with b_i shifted by +-3 (the loss is non-convex and bounded)."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((N, d))
    A /= np.linalg.norm(A, axis=1, keepdims=True)
    w_star = 2.0 * rng.standard_normal(d) / np.sqrt(d)
    b = A @ w_star + 0.1 * rng.standard_normal(N)
    out = rng.random(N) < outliers
    b[out] += 3.0 * rng.choice([-1.0, 1.0], size=int(out.sum()))
    phi, G, L = robust_loss_constants()
    u = next(iter(phi.free_symbols))
    dphi = sp.lambdify(u, sp.diff(phi, u), "numpy")
    return RobustRegression(A, b, float(G), float(L), dphi)


@dataclass(frozen=True)
class SmokeRun:
    algorithm: int
    N: int
    T: int
    eps: float
    grad_norm_start: float
    grad_norm_mean: float       # mean ||grad F(w_t)|| over t = 1..T (E||grad F(w_hat)||)
    grad_norm_last: float
    recon_rel_error: float | None = None   # Alg. 2 only
    gradient_evaluations: int | None = None

    def __str__(self) -> str:
        extra = "" if self.recon_rel_error is None else (
            f", Alg. 4 rebuild error {nstr(self.recon_rel_error, 2)}")
        return (f"Alg. {self.algorithm}: N={self.N}, T={self.T}, eps={self.eps:g}: "
                f"||grad F|| {nstr(self.grad_norm_start, 4)} at w_1, mean over iterates "
                f"{nstr(self.grad_norm_mean, 4)}{extra}")


def smoke_run(algorithm: int, N: int, d: int = 5, eps: float = 1.0, seed: int = 0,
              fixed_permutation: bool = True, noise: bool = True) -> SmokeRun:
    """Run Algorithm 1 (Thm 6's parameters) or Algorithm 2 (Thm 9's) once, delta = N^-2."""
    data = robust_regression(N, d, seed=seed)
    delta = Fraction(1, N * N)  # exact: converted by each callee at its own precision
    w1 = np.zeros(d)
    if algorithm == 1:
        p = dp_nsgd.thm_6_parameters(N, eps, delta, d, dps=20)
        T = int(p.T)  # exact floor (T > 0); mpmath.floor rounds to the working precision
        run = dp_nsgd.alg_1(data.grad, N, T, w1, float(p.eta), float(p.alpha) * float(p.T) / T,
                            float(p.sigma), data.G, seed=seed + 1)
        ws, recon, evals = run.w, None, T
    elif algorithm == 2:
        T = int(sr.thm_9_parameters(N, eps, d, dps=20).T)  # exact floor (T > 0)
        p = sr.thm_9_parameters(N, eps, d, T=T, dps=20)
        sigma = float(sr.thm_8_sigma(eps, delta, dps=20))
        run2 = sr.alg_2(data.grad, N, T, w1, float(p.eta), float(p.alpha), float(p.gamma),
                        sigma, data.G, data.L, seed=seed + 1,
                        fixed_permutation=fixed_permutation, noise=noise)
        ws, recon, evals = run2.w, run2.recon_rel_error, run2.gradient_evaluations
    else:
        raise ValueError(f"algorithm={algorithm} violates algorithm in (1, 2) "
                         f"({cite('tran2022')})")
    norms = np.array([np.linalg.norm(data.full_grad(w)) for w in ws[:-1]])
    return SmokeRun(algorithm, N, T, eps, float(norms[0]), float(norms.mean()),
                    float(norms[-1]), recon, evals)
