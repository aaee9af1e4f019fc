"""Langevin diffusion and the exponential mechanism (Sec. 5, App. D.4): Prop. 5.1, Cors 5.2,
5.4, Remark 5.3, and the threshold c* of App. D.4.

Symbols: F, F' (the potentials; F - F' is L-Lipschitz), m, M (strong convexity,
smoothness), eta (LMC step, noise N(0, 2 eta)), D (diameter of K), eps (pure DP).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp import EpsDelta
from dpsym.fdp.tradeoff import min_gap_to_gaussian
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, find_root, precision, round_up, to_mpf
from dpsym.papers.bok2024 import printed
from dpsym.papers.bok2024.noisygd import thm_4_2_montecarlo
from dpsym.papers.bok2024.noisygd_constrained import thm_4_3, thm_4_3_dominance_threshold
from dpsym.papers.registry import cite
from dpsym.shifts.interpolation import lemma_c6_limit

__all__ = [
    "app_d4_threshold",
    "cor_5_2",
    "cor_5_2_symbolic",
    "cor_5_4",
    "cor_5_4_from_thm_4_3",
    "prop_5_1",
    "prop_5_1_symbolic",
    "pure_dp_dominates_gdp",
    "rem_5_3_montecarlo",
]

PAPER = "bok2024"


@cache
def _limit_mpmath() -> Callable[[mpf], mpf]:
    (c,) = lemma_c6_limit().free_symbols
    return sp.lambdify(c, lemma_c6_limit(), "mpmath")


def prop_5_1(L: Number, m: Number, eta: Number, M: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Prop 5.1: LMC (noise N(0, 2 eta)) on m-strongly convex, M-smooth F, F' with F - F'
    L-Lipschitz is mu-GDP uniformly in t for eta in (0, 2/(M+m)], with
    mu = sqrt((2 - eta m)/2) L/sqrt(m).

    Computed as Thm 4.2 at t -> oo (the sympy limit (1 + c)/(1 - c) of Lemma C.6) with
    n = 1, sigma = sqrt(2/eta), c = 1 - eta m.  Rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(prop_5_1(1, 1, "0.05", 1, dps=30), 10)   # sqrt(0.975)
    '0.9874208829'
    """
    ref = cite(PAPER, "Prop. 5.1")
    with precision(dps + GUARD_DPS):
        Lv, mv, ev, Mv = (to_mpf(x, k, ref) for x, k in ((L, "L"), (m, "m"), (eta, "eta"),
                                                          (M, "M")))
        require(Lv >= 0, "L", L, "L >= 0 (a Lipschitz constant)", ref)
        require(mv > 0, "m", m, "m > 0", ref)
        require(Mv >= mv, "M", M, f"M >= m = {m}", ref)
        require(0 < ev <= 2 / (Mv + mv), "eta", eta,
                f"0 < eta <= 2/(M+m) = {mpmath.nstr(2 / (Mv + mv), 6)}", ref)
        # c = 1 - eta m rounds to 1 when eta m < 10^-dps (m = 1e-320): carry enough digits.
        extra = max(0, -int(mpmath.floor(mpmath.log10(ev * mv))))
        with precision(dps + GUARD_DPS + extra):
            c = 1 - ev * mv
            s, sigma = ev * Lv, mpmath.sqrt(2 / ev)
            mu = mpmath.sqrt(_limit_mpmath()(c)) * s / (ev * sigma)
    return round_up(mu, dps)


def prop_5_1_symbolic() -> dict[str, sp.Expr]:
    """Prop 5.1 and Remark 5.3 by sympy: ``mu2_residual`` = mu^2 from Thm 4.2 at t -> oo
    (:func:`dpsym.shifts.lemma_c6_limit`, c = 1 - eta m, s = eta L, noise eta sigma =
    sqrt(2 eta)) minus the square of the printed mu (:data:`printed.PROP_5_1`);
    ``variance_residual`` = the stationary variance of X <- (1 - eta m) X + N(0, 2 eta) minus
    Remark 5.3's 2/((2 - eta m) m); ``tightness_residual`` = (L/m)^2 / variance - mu^2, the
    tradeoff of Remark 5.3's stationary Gaussians against the bound.

    >>> prop_5_1_symbolic()
    {'mu2_residual': 0, 'variance_residual': 0, 'tightness_residual': 0}
    """
    (c,) = lemma_c6_limit().free_symbols
    eta, m, L = sp.symbols("eta m L", positive=True)
    ratio = lemma_c6_limit().subs(c, 1 - eta * m)
    mu2 = sp.simplify(ratio * (eta * L) ** 2 / (eta * sp.sqrt(2 / eta)) ** 2)
    shown = printed.formula(printed.PROP_5_1, eta=eta, m=m, L=L) ** 2
    var = sp.simplify(2 * eta / (1 - (1 - eta * m) ** 2))
    return {"mu2_residual": sp.simplify(mu2 - shown),
            "variance_residual": sp.simplify(var - 2 / ((2 - eta * m) * m)),
            "tightness_residual": sp.simplify((L / m) ** 2 / var - shown)}


def cor_5_2(L: Number, m: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Cor 5.2: for pi ~ e^-F, pi' ~ e^-F' (m-strongly convex, F - F' L-Lipschitz),
    T(pi, pi') >= G(L/sqrt(m)): Prop 5.1 as eta -> 0. Rounded up.

    >>> cor_5_2(2, 4)
    mpf('1.0')
    """
    ref = cite(PAPER, "Cor. 5.2")
    with precision(dps + GUARD_DPS):
        Lv, mv = to_mpf(L, "L", ref), to_mpf(m, "m", ref)
        require(Lv >= 0, "L", L, "L >= 0 (a Lipschitz constant)", ref)
        require(mv > 0, "m", m, "m > 0", ref)
        mu = Lv / mpmath.sqrt(mv)
    return round_up(mu, dps)


def cor_5_2_symbolic() -> dict[str, sp.Expr]:
    """Cor. 5.2 by sympy, both parts, with their tightness: ``stationary_residual`` = Prop
    5.1's mu^2 (:data:`printed.PROP_5_1`; the bound for pi(eta), t -> oo) minus the squared
    mean-difference-over-sd of Remark 5.3's stationary laws (attained); ``limit_residual`` =
    its eta -> 0 limit minus (L/sqrt(m))^2 (the bound for pi, pi'); ``exponential_residual`` =
    for F = m x^2/2 and F' = F - L x (F - F' is L-Lipschitz) the exponential mechanisms
    e^{-F}, e^{-F'} are N(0, 1/m) and N(L/m, 1/m) (completing the square, by sympy), whose
    tradeoff G((L/m)/(1/sqrt m))^2 minus (L/sqrt(m))^2: the second bound is attained too.

    >>> cor_5_2_symbolic()
    {'stationary_residual': 0, 'limit_residual': 0, 'exponential_residual': 0}
    """
    eta, m, L, x = sp.symbols("eta m L x", positive=True)
    shown = printed.formula(printed.PROP_5_1, eta=eta, m=m, L=L) ** 2
    var = sp.simplify(2 * eta / (1 - (1 - eta * m) ** 2))
    stationary = sp.simplify((L / m) ** 2 / var - shown)
    limit = sp.simplify(sp.limit(shown, eta, 0) - (L / sp.sqrt(m)) ** 2)
    # e^{-F'} with F' = m x^2/2 - L x: the exponent's vertex and curvature give its mean and
    # variance (a Gaussian), the base e^{-F} has mean 0 and the same variance 1/m.
    expo = -(m * x**2 / 2 - L * x)
    (mean,) = sp.solve(sp.diff(expo, x), x)
    variance = -1 / sp.diff(expo, x, 2)
    exponential = sp.simplify(mean**2 / variance - (L / sp.sqrt(m)) ** 2)
    return {"stationary_residual": stationary, "limit_residual": limit,
            "exponential_residual": exponential}


def cor_5_4(L: Number, D: Number, eta: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """Cor 5.4: for log-concave pi ~ e^-F 1_K, pi' ~ e^-F' 1_K (F, F' convex, L-Lipschitz, K of
    diameter D), T(pi, pi') >= G(2 sqrt(LD)); for projected LMC with step eta in (0, 2/M],
    T(pi(eta), pi'(eta)) >= G(sqrt(4 L D + 2 eta L^2)).  (Sensitivity 2L: F, F' are each
    L-Lipschitz.)  Rounded up.

    >>> cor_5_4(1, 1)
    mpf('2.0')
    """
    ref = cite(PAPER, "Cor. 5.4")
    with precision(dps + GUARD_DPS):
        Lv, Dv = to_mpf(L, "L", ref), to_mpf(D, "D", ref)
        require(Lv > 0, "L", L, "L > 0", ref)
        require(Dv > 0, "D", D, "D > 0", ref)
        extra = mpf(0)
        if eta is not None:
            ev = to_mpf(eta, "eta", ref)
            require(ev > 0, "eta", eta, "eta > 0", ref)
            extra = 2 * ev * Lv**2
        mu = mpmath.sqrt(4 * Lv * Dv + extra)
    return round_up(mu, dps)


def cor_5_4_from_thm_4_3(
    cases: tuple[tuple[Number, Number, str], ...] = (("0.5", 1, "0.1"), (1, 3, "0.01"),
                                                      ("0.2", "0.7", "0.05"), (2, 2, "0.3")),
    dps: int = DEFAULT_DPS,
) -> mpf:
    """max over (L, D, eta) in ``cases`` of Thm 4.3 (n = 1, sigma^2 = 2/eta, sensitivity 2L,
    at its dominance threshold) minus Cor 5.4's sqrt(4 L D + 2 eta L^2): <= 0 means the
    corollary's bound follows from the theorem.

    >>> cor_5_4_from_thm_4_3(dps=20) <= 0
    True
    """
    worst = mpf("-inf")
    for L, D, eta in cases:
        sens = 2 * Fraction(str(L))     # F and F' each L-Lipschitz: gradient sensitivity 2L
        t = thm_4_3_dominance_threshold(sens, 1, eta, D)
        with precision(dps + GUARD_DPS):
            via = thm_4_3(sens, 1, mpmath.sqrt(2 / mpf(eta)), eta, D, t, dps=dps)
            worst = max(worst, via - cor_5_4(L, D, eta, dps=dps))
    return worst


def pure_dp_dominates_gdp(eps: Number, mu: Number, dps: int = DEFAULT_DPS) -> tuple[bool, mpf]:
    """Whether f_{eps,0} >= G(mu), and the gap min_x f_{eps,0}(x) - G(mu)(x), exactly: the
    minimum of a piecewise linear minus G(mu) is at a breakpoint
    (:func:`dpsym.fdp.tradeoff.min_gap_to_gaussian`). Equivalent to
    e^eps <= Phi(mu/2)/Phi(-mu/2) (DRS22, Prop. 3; App. D.4).

    >>> pure_dp_dominates_gdp(1, 2, dps=20)[0], pure_dp_dominates_gdp(1, 1, dps=20)[0]
    (True, False)
    """
    with precision(dps + GUARD_DPS):
        to_mpf(eps, "eps", cite(PAPER, "App. D.4"))
        gap = min_gap_to_gaussian(EpsDelta(eps, 0).piecewise(dps + GUARD_DPS), mu,
                                  dps=dps + GUARD_DPS)
        gap = min(gap, mpf(0))
    return gap >= 0, gap


def app_d4_threshold(dps: int = DEFAULT_DPS) -> mpf:
    """App. D.4: the c* with (2LD, 0)-DP implying 2 sqrt(LD)-GDP exactly when LD <= c*:
    the root of e^(2x) = Phi(sqrt x)/Phi(-sqrt x), x > 0.

    >>> from dpsym.numerics import nstr
    >>> nstr(app_d4_threshold(30), 12)
    '0.67638967964'
    """
    with precision(dps + GUARD_DPS):
        def g(x: mpf) -> mpf:
            r = mpmath.sqrt(x)
            return 2 * x - (mpmath.log(mpmath.ncdf(r)) - mpmath.log(mpmath.ncdf(-r)))

        root = find_root(g, mpf("0.5"), mpf("0.8"), lower=0, side="nearest")
    with precision(dps):  # rounded here, not at the caller's precision
        return +root


def rem_5_3_montecarlo(L: float = 1.0, m: float = 1.0, eta: float = 0.05, t: int = 400,
                       n: int = 100_000, seed: int = 20240603) -> dict:
    """Remark 5.3's tight instance by simulation: LMC on F = m/2 x^2 and F' = m/2 (x - L/m)^2.

    X_{k+1} = (1 - eta m) X_k + eta L 1{F'} + N(0, 2 eta): the CNI of
    :func:`dpsym.papers.bok2024.thm_4_2_montecarlo` with c = 1 - eta m, s = eta L, noise
    sqrt(2 eta); after t steps (c^t ~ 1e-9) the chains are at their stationary laws, whose
    tradeoff Prop 5.1 claims is exactly G(mu).

    >>> r = rem_5_3_montecarlo(n=20_000)
    >>> max(abs(row["z"]) for row in r["rows"]) < 4
    True
    """
    _mc = cite(PAPER, "Rem. 5.3 (Monte Carlo)")
    t = require_integer("t", t, _mc, minimum=1, maximum=10**5)
    n = require_integer("n", n, _mc, minimum=2, maximum=10**7)
    seed = require_integer("seed", seed, _mc, minimum=0)
    with precision(DEFAULT_DPS):  # a float input converts exactly, a string once
        L, m, eta = [float(to_mpf(x, k, _mc)) for x, k in ((L, "L"), (m, "m"), (eta, "eta"))]
    require(L >= 0 and m > 0 and 0 < eta * m < 1, "eta", eta, "L >= 0, m > 0, 0 < eta m < 1",
            _mc)
    out = thm_4_2_montecarlo(c=1 - eta * m, s=eta * L, sigma=float(np.sqrt(2 * eta)), t=t, n=n,
                             seed=seed)
    out["prop_5_1"] = prop_5_1(repr(L), repr(m), repr(eta), repr(m), dps=20)
    return out
