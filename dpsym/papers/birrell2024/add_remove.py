"""Birrell, Ebrahimi, Behnia & Pacheco 2024: FSwoR, add/remove adjacency (Sec. 3.2.1, App. A, B, G).

Each numbered statement is a function of the paper's symbols (``alpha, sigma, q, m, T``);
``sigma`` is the noise multiplier (noise N(0, C^2 sigma^2) added to the *sum* of clipped
gradients), ``q = |B|/|D|``.  Values are mpf at ``dps`` digits; privacy bounds are
rounded up.  The evidence functions compare the paper's formulas, as printed
(:mod:`.printed`), with sympy derivations and independent evaluations.

>>> from dpsym.numerics import nstr
>>> nstr(thm_3_3(alpha=50, sigma=6, q="0.0024", m=3, dps=30), 6)
'1.79321e-5'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import require_integer
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.birrell2024 import printed
from dpsym.papers.registry import cite
from dpsym.rdp.conversions import epsilon_from_rdp
from dpsym.rdp.gaussian_mixture import (
    B_tilde,
    H,
    H_minus_1,
    H_minus_1_by_definition,
    M,
    M_expression,
    log_H,
    sigma_symbol,
)
from dpsym.rdp.subsampled_gaussian import poisson_gaussian_rdp
from dpsym.rdp.taylor import (
    R_tilde,
    alpha_s,
    fswor_add_remove_rdp,
    h_derivative_at_0,
    h_taylor_bound,
    symbolic_M,
)

PAPER = "birrell2024"

__all__ = [
    "ALPHAS_FIG6",
    "BATCH",
    "D_SIZE",
    "REMAINDER_GRID",
    "SIGMA",
    "T_EPOCHS_250",
    "T_TRAINING",
    "Q",
    "app_g_epsilons",
    "app_g_factor",
    "app_g_heuristic",
    "eq_8",
    "eq_13_time_varying",
    "eq_41_coefficient",
    "eq_41_derivations",
    "eq_44",
    "eq_44_derivations",
    "eq_47",
    "eq_50",
    "exact_remainder",
    "figure_6_curves",
    "remainder_domination",
    "thm_3_1",
    "thm_3_1_equals_poisson",
    "thm_3_2",
    "thm_3_2_q2_coefficient",
    "thm_3_3",
]

# The paper's running setting (Sec. 4, Figs 2-9): sigma = 6, |B| = 120, |D| = 50,000.
SIGMA = 6
BATCH = 120
D_SIZE = 50_000
Q = "0.0024"
#: "250 epochs" in the authors' plotting scripts: T = 50000/120 * 250 (a float).
T_EPOCHS_250 = mpf(D_SIZE) / BATCH * 250
#: 250 epochs in the training script: floor(50000/120) = 416 steps per epoch.
T_TRAINING = 416 * 250
#: Figure 6 / Figure 2 (``fs_rdp_bounds_figs.py``) order grid: 1 + 10^linspace(-2, 1.8, 100).
ALPHAS_FIG6 = tuple(1 + 10 ** float(x) for x in np.linspace(-2, 1.8, 100))


def eq_8(alpha: Number, sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """H_{alpha,sigma}(q) = E_{Z~N(0,1)}[(1 - q + q e^{2Z/sigma - 2/sigma^2})^alpha], eq. (8)."""
    return H(alpha, sigma, q, dps=dps)


def thm_3_1(alpha: Number, sigma: Number, q: Number, T: int = 1,
            dps: int = DEFAULT_DPS) -> mpf:
    """Thm 3.1: one FSwoR step (add/remove) has RDP <= log H_{alpha,sigma}(q)/(alpha-1) (7).

    This is the exact right-hand side (integer alpha: binomial sum; real alpha: quadrature),
    times T for T identical steps (eq. (4)).  Rounded up.
    """
    t = require_integer("T", T, cite(PAPER, "Thm 3.1 (composition (4))"), minimum=1)
    lh = log_H(alpha, sigma, q, dps=dps + GUARD_DPS)  # validates alpha > 1, sigma > 0, q
    with precision(dps + GUARD_DPS):
        val = t * lh / (to_mpf(alpha) - 1)
    return round_up(val, dps)


def thm_3_2(alpha: Number, sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 3.2: H_{alpha,sigma}(q) <= 1 + q^2 alpha(alpha-1) M_{sigma,2}/2 + R~_{alpha,sigma,3}(q).

    Returns the right-hand side minus 1 (it is ~q^2; subtracting keeps every digit).
    """
    return h_taylor_bound(alpha, sigma, q, 3, dps=dps)


def eq_41_coefficient(k: int, alpha: Number, sigma: Number, dps: int = DEFAULT_DPS) -> mpf:
    """The q^k coefficient of H in (41): (alpha)_k M_{sigma,k} / k!."""
    ref = cite(PAPER, "eq. (41)")
    kk = require_integer("k", k, ref, minimum=0)
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", ref)
        out = mpmath.ff(a, kk) / mpmath.factorial(kk) * M(sigma, kk, dps=dps + GUARD_DPS)
    with precision(dps):
        return +out


def eq_44(sigma: Number, k: int, dps: int = DEFAULT_DPS) -> mpf:
    """M_{sigma,k} of eq. (44) (precision rises with the cancellation)."""
    return M(sigma, k, dps=dps)


def eq_47(sigma: Number, j: int, dps: int = DEFAULT_DPS) -> mpf:
    """B~_{sigma,j} of eq. (47)."""
    return B_tilde(sigma, j, dps=dps)


def eq_50(alpha: Number, sigma: Number, q: Number, m: int, dps: int = DEFAULT_DPS) -> mpf:
    """R~_{alpha,sigma,m}(q), the App. B remainder bound ((50) for alpha > m, (54) else)."""
    return R_tilde(alpha, sigma, q, m, dps=dps)


def thm_3_3(alpha: Number, sigma: Number, q: Number, m: int = 3, T: int = 1,
            dps: int = DEFAULT_DPS) -> mpf:
    """Thm 3.3 (m = 3) and its App. B generalisation: T-step FSwoR add/remove RDP bound (13).

    T/(alpha-1) log[1 + sum_{k=2}^{m-1} q^k (alpha)_k M_{sigma,k}/k! + R~_{alpha,sigma,m}(q)],
    any real alpha > 1.  Rounded up.
    """
    return fswor_add_remove_rdp(alpha, sigma, q, m, steps=T, dps=dps)


def exact_remainder(alpha: Number, sigma: Number, q: Number, m: int,
                    dps: int = DEFAULT_DPS) -> mpf:
    """R_{alpha,sigma,m}(q) = H - 1 - sum_{k=2}^{m-1} q^k (alpha)_k M_k/k!, from the exact H."""
    with precision(dps + GUARD_DPS):
        qv = to_mpf(q, "q")
        out = H_minus_1(alpha, sigma, q, dps=dps + 2 * GUARD_DPS) - mpmath.fsum(
            qv**k * eq_41_coefficient(k, alpha, sigma, dps=dps + 2 * GUARD_DPS)
            for k in range(2, m))
    with precision(dps):
        return +out


def app_g_epsilons(delta: Number = "1e-5", T: int = T_TRAINING, sigma: Number = SIGMA,
                   q: Number = Q, orders: Sequence[int] = tuple(range(2, 64)), m: int = 4,
                   dps: int = 30) -> tuple[mpf, mpf]:
    """(eps Poisson, eps FSwoR) under add/remove after T steps (App. G, eqs. (148)-(152)).

    Poisson: Mironov et al.'s subsampled Gaussian; FSwoR: Thm 3.3 with order m; both
    converted by Balle et al. 2020, Thm 21 and minimised over ``orders``.  The paper
    predicts eps_FS ~ 2 eps_P (152).
    """
    best_p, best_f = None, None
    for a in orders:
        ep = epsilon_from_rdp(a, poisson_gaussian_rdp(q, sigma, a, steps=T, dps=dps), delta,
                              dps=dps)
        ef = epsilon_from_rdp(a, thm_3_3(a, sigma, q, m, T=T, dps=dps), delta, dps=dps)
        best_p = ep if best_p is None else min(best_p, ep)
        best_f = ef if best_f is None else min(best_f, ef)
    return best_p, best_f


@functools.cache
def figure_6_curves(alphas: Sequence[float] = ALPHAS_FIG6, dps: int = 20) -> dict[str, list[mpf]]:
    """One-step Thm 3.3 bounds (m = 3, 4) at sigma = 6, q = 0.0024 on the Figure 6 grid."""
    return {f"m={m}": [thm_3_3(a, SIGMA, Q, m, dps=dps) for a in alphas] for m in (3, 4)}


# --- evidence -----------------------------------------------------------------------------


@functools.cache
def eq_44_derivations(ks: Sequence[int] = range(9)) -> dict[str, Derivation]:
    """(44) three ways, for each k: sympy's E[(L-1)^k] from the Gaussian MGF
    (:func:`dpsym.rdp.taylor.symbolic_M`) against the sum dpsym evaluates
    (:func:`dpsym.rdp.gaussian_mixture.M_expression`), and that sum against both printed
    forms of (44).  Keys ``"derived,k"``, ``"first,k"``, ``"second,k"`` (k >= 1)."""
    k_s, ell = sp.symbols("k l", integer=True, nonnegative=True)
    forms = {}
    for name, p in (("first", printed.EQ_44_FIRST), ("second", printed.EQ_44_SECOND)):
        forms[name] = sp.sympify(p.value, locals={"k": k_s, "l": ell, "sigma": sigma_symbol})
    out = {}
    for k in ks:
        impl = M_expression(k)
        out[f"derived,{k}"] = Derivation(symbolic_M(k), impl, sp.simplify(symbolic_M(k) - impl),
                                         f"E[(L-1)^k], k = {k}")
        for name, f in forms.items():
            if name == "second" and k == 0:
                continue  # the second form separates the l = 0, 1 terms, k >= 1
            target = f.subs(k_s, k).doit()
            out[f"{name},{k}"] = Derivation(impl, target, sp.simplify(impl - target),
                                            f"(44) {name} form, k = {k}")
    return out


@functools.cache
def eq_41_derivations(ks: Sequence[int] = range(9)) -> dict[int, Derivation]:
    """d^k/dq^k H(0) (sympy differentiates E[(1 + q(L-1))^alpha] at q = 0 for symbolic
    real alpha) against the printed (alpha)_k M_{sigma,k} of (40)-(41), per k."""
    out = {}
    for k in ks:
        derived = h_derivative_at_0(k)
        target = sp.sympify(printed.EQ_41.value, locals={
            "alpha": alpha_s, "k": sp.Integer(k), "M": lambda j: M_expression(int(j))})
        out[k] = Derivation(derived, target, sp.simplify(sp.expand(derived - target)),
                            f"(41), k = {k}")
    return out


def thm_3_2_q2_coefficient() -> Derivation:
    """The q^2 term of H, derived (H''(0) q^2 / 2), against Thm 3.2's printed (11)."""
    q = sp.Symbol("q", positive=True)
    derived = h_derivative_at_0(2) / 2 * q**2
    p = printed.formula(printed.EQ_11_Q2)
    names = {str(x): x for x in p.free_symbols}
    target = p.subs({names["alpha"]: alpha_s, names["sigma"]: sigma_symbol, names["q"]: q})
    return Derivation(derived, target, sp.simplify(derived - target), "(11), the q^2 term")


#: (alpha, sigma, q) of :func:`remainder_domination`: integer alpha (exact binomial H) and
#: real alpha (quadrature H).
REMAINDER_GRID = (*((a, s, q) for a in (2, 3, 7, 64) for s in ("0.5", 1, 6, 200)
                     for q in ("1e-8", "0.0024", "0.1", "0.5")),
                   ("1.5", 1, "0.1"), ("3.7", 50, "1e-4"), ("20.5", 6, "0.0024"))


@functools.cache
def remainder_domination(grid: Sequence[tuple] = REMAINDER_GRID, ms: Sequence[int] = (3, 4, 5),
                         dps: int = 25) -> tuple[mpf, tuple, int]:
    """min relative slack (bound - (H - 1))/(H - 1) of the Taylor bound of Thm 3.2 / App. B
    (1 + sum_{k<m} q^k (alpha)_k M_k/k! + R~_m) against the exact H: (slack, (alpha, sigma,
    q, m), number of points).  Negative slack would break (50)/(54)."""
    worst, n = None, 0
    for a, s, q in grid:
        exact = H_minus_1(a, s, q, dps=dps)
        for m in ms:
            bound = h_taylor_bound(a, s, q, m, dps=dps)
            n += 1
            with precision(dps):
                slack = (bound - exact) / exact
            if worst is None or slack < worst[0]:
                worst = (slack, (a, s, q, m))
    return worst[0], worst[1], n


def thm_3_1_equals_poisson(points: Sequence[tuple] = ((2, 6, "0.0024"), (64, 200, "0.5"),
                                                      ("7.3", 2, "0.01")),
                           dps: int = 20) -> mpf:
    """max relative difference between (7) with H by direct quadrature of (8)
    (:func:`dpsym.rdp.gaussian_mixture.H_minus_1_by_definition`) and Mironov et al.'s
    Poisson subsampled Gaussian RDP at noise sigma/2 (:mod:`dpsym.rdp.subsampled_gaussian`)."""
    worst = mpf(0)
    for a, s, q in points:
        direct = H_minus_1_by_definition(a, s, q, dps=dps)
        with precision(dps + 10):
            lhs = mpmath.log1p(direct) / (mpf(a) - 1)
            rhs = poisson_gaussian_rdp(q, mpf(s) / 2, a, dps=dps + 10)
            worst = max(worst, abs(lhs / rhs - 1))
    return worst


@functools.cache
def app_g_factor(deltas: Sequence[Number] = ("1e-5", "1e-10"), dps: int = 20
                 ) -> list[tuple[Number, mpf, mpf, mpf]]:
    """(delta, eps Poisson, eps FSwoR, ratio) of :func:`app_g_epsilons` (App. G, (152))."""
    rows = []
    for d in deltas:
        p, f = app_g_epsilons(d, dps=dps)
        with precision(dps):
            rows.append((d, p, f, f / p))
    return rows


def app_g_heuristic() -> dict[str, sp.Expr]:
    """App. G's heuristic, solved exactly: eps(alpha) = alpha R + L/(alpha - 1) with
    L = log(1/delta) (RDP alpha R converted by (148)) is least at alpha* = 1 + sqrt(L/R),
    eps* = R + 2 sqrt(L R); (149) approximates alpha ~ alpha - 1 to get 2 sqrt(L R)."""
    a, R, L = sp.symbols("alpha R L", positive=True)
    eps = a * R + L / (a - 1)
    a_star = [s for s in sp.solve(sp.diff(eps, a), a) if s.is_positive is not False][-1]
    lam = sp.Symbol("lambda", positive=True)
    approx = lam * R + L / lam
    l_star = sp.solve(sp.diff(approx, lam), lam)[0]
    return {"eps": eps, "alpha_star": a_star, "eps_star": sp.simplify(eps.subs(a, a_star)),
            "eq_149": sp.simplify(approx.subs(lam, l_star))}


def eq_13_time_varying(sigmas: Sequence[Number] = (2, 6), alpha: Number = 10,
                       q: Number = Q, m: int = 3, dps: int = 30) -> tuple[mpf, mpf]:
    """(13) with a noise schedule: (sum_t of the one-step bound at sigma_t, which (4) and
    Thm 3.2 give; T times the one-step bound at the last sigma, one reading of the printed
    sigma inside sum_t).  The first exceeds the second whenever some sigma_t is smaller."""
    per_step = [thm_3_3(alpha, s, q, m, dps=dps) for s in sigmas]
    with precision(dps + GUARD_DPS):
        total = mpmath.fsum(per_step)
        constant = len(sigmas) * per_step[-1]
    return round_up(total, dps), round_up(constant, dps)
