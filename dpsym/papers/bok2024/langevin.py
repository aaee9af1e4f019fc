"""Langevin diffusion and the exponential mechanism (Sec. 5, App. D.4): Prop. 5.1, Cors
5.2, 5.4, Remark 5.3.
"""

from __future__ import annotations

from functools import cache

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import require
from dpsym.fdp import Gaussian
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.bok2024.noisygd import thm_4_2_montecarlo
from dpsym.shifts import lemma_c6_symbolic

__all__ = [
    "app_d4_threshold",
    "cor_5_2",
    "cor_5_4",
    "prop_5_1",
    "pure_dp_dominates_gdp",
    "rem_5_3_montecarlo",
]


@cache
def _c6_limit() -> sp.Expr:
    """lim_{t -> oo} of the Lemma C.6 value over s^2: (1 + c)/(1 - c) (sympy)."""
    d = lemma_c6_symbolic()
    # 0 < c < 1 is written c = e^-u, u > 0, so that sympy knows c^t -> 0.
    u = sp.Symbol("u", positive=True)
    lim = sp.limit((d.value / d.s**2).subs(d.c, sp.exp(-u)), d.t, sp.oo)
    return sp.simplify(lim.subs(u, -sp.log(sp.Symbol("c", positive=True))))


def prop_5_1(L: Number, m: Number, eta: Number, M: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Prop 5.1: LMC (noise N(0, 2 eta)) on m-strongly convex, M-smooth F, F' with F - F'
    L-Lipschitz is mu-GDP uniformly in t for eta in (0, 2/(M+m)], with
    mu = sqrt((2 - eta m)/2) L/sqrt(m).

    Computed as Thm 4.2 at t -> oo (the sympy limit (1 + c)/(1 - c) of Lemma C.6) with
    n = 1, sigma = sqrt(2/eta), c = 1 - eta m.  Rounded up."""
    ref = "Bok et al. 2024, Prop. 5.1"
    with precision(dps + GUARD_DPS):
        Lv, mv, ev, Mv = (to_mpf(x, k, ref) for x, k in ((L, "L"), (m, "m"), (eta, "eta"),
                                                          (M, "M")))
        require(mv > 0, "m", m, "m > 0", ref)
        require(Mv >= mv, "M", M, f"M >= m = {m}", ref)
        require(0 < ev <= 2 / (Mv + mv), "eta", eta,
                f"0 < eta <= 2/(M+m) = {mpmath.nstr(2 / (Mv + mv), 6)}", ref)
        c = 1 - ev * mv
        ratio = sp.lambdify(sp.Symbol("c", positive=True), _c6_limit(), "mpmath")(c)
        s, sigma = ev * Lv, mpmath.sqrt(2 / ev)
        mu = mpmath.sqrt(ratio) * s / (ev * sigma)
    return round_up(mu, dps)


def cor_5_2(L: Number, m: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Cor 5.2: for pi ~ e^-F, pi' ~ e^-F' (m-strongly convex, F - F' L-Lipschitz),
    T(pi, pi') >= G(L/sqrt(m)): Prop 5.1 as eta -> 0."""
    ref = "Bok et al. 2024, Cor. 5.2"
    with precision(dps + GUARD_DPS):
        Lv, mv = to_mpf(L, "L", ref), to_mpf(m, "m", ref)
        require(mv > 0, "m", m, "m > 0", ref)
        mu = Lv / mpmath.sqrt(mv)
    return round_up(mu, dps)


def cor_5_4(L: Number, D: Number, eta: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """Cor 5.4: for log-concave pi ~ e^-F 1_K, pi' ~ e^-F' 1_K (F, F' convex, L-Lipschitz, K of
    diameter D), T(pi, pi') >= G(2 sqrt(LD)); for projected LMC with step eta in (0, 2/M],
    T(pi(eta), pi'(eta)) >= G(sqrt(4 L D + 2 eta L^2)).  (Sensitivity 2L: F, F' are each
    L-Lipschitz.)  Rounded up."""
    ref = "Bok et al. 2024, Cor. 5.4"
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


def pure_dp_dominates_gdp(eps: Number, mu: Number, dps: int = DEFAULT_DPS) -> tuple[bool, mpf]:
    """Whether f_{eps,0} >= G(mu), and the gap min_x f_{eps,0}(x) - G(mu)(x), exactly.

    f_{eps,0} is piecewise linear with its kink at p = 1/(1 + e^eps), where it equals p; on
    each piece f - G(mu) is concave, so the minimum is at 0, p or 1, and it is
    p - G(mu)(p).  Equivalent to e^eps <= Phi(mu/2)/Phi(-mu/2) (DRS22, Prop. 3)."""
    with precision(dps + GUARD_DPS):
        e = to_mpf(eps, "eps", "Bok et al. 2024, App. D.4")
        p = 1 / (1 + mpmath.exp(e))
        gap = min(mpf(0), p - Gaussian(mu)(p))
    return gap >= 0, gap


def app_d4_threshold(dps: int = DEFAULT_DPS) -> mpf:
    """App. D.4: the c* with (2LD, 0)-DP implying 2 sqrt(LD)-GDP exactly when LD <= c*:
    the root of e^(2x) = Phi(sqrt x)/Phi(-sqrt x), x > 0."""
    from dpsym.numerics import find_root

    with precision(dps + GUARD_DPS):
        def g(x: mpf) -> mpf:
            r = mpmath.sqrt(x)
            return 2 * x - (mpmath.log(mpmath.ncdf(r)) - mpmath.log(mpmath.ncdf(-r)))

        root = find_root(g, mpf("0.5"), mpf("0.8"), lower=0, side="nearest")
    return +root


def rem_5_3_montecarlo(L: float = 1.0, m: float = 1.0, eta: float = 0.05, t: int = 400,
                       n: int = 100_000, seed: int = 20240603) -> dict:
    """Remark 5.3's tight instance by simulation: LMC on F = m/2 x^2 and F' = m/2 (x - L/m)^2.

    X_{k+1} = (1 - eta m) X_k + eta L 1{F'} + N(0, 2 eta): the CNI of :func:`thm_4_2_montecarlo`
    with c = 1 - eta m, s = eta L, noise sqrt(2 eta); after t steps (c^t ~ 1e-9) the chains are
    at their stationary laws, whose tradeoff Prop 5.1 claims is exactly G(mu)."""
    out = thm_4_2_montecarlo(c=1 - eta * m, s=eta * L, sigma=float(np.sqrt(2 * eta)), t=t, n=n,
                             seed=seed)
    out["prop_5_1"] = prop_5_1(repr(L), repr(m), repr(eta), repr(m), dps=20)
    return out


