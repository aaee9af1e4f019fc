"""Bravo, Flores-Mella & Guzman 2025, Section 3.3: Corollaries 3.7-3.9 and prior bounds.

Constant step, constant noise variance sigma2 = sigma^2 and constant modulus
phi(delta) = sqrt(c delta^2 + h) specialise Theorem 3.4.  The functions below are the
corollaries as the paper states them; the claims check each against the general closed form
:func:`dpsym.shifts.pabi.optimal_value` (which is not re-derived here).

* Corollary 3.7 (c = 1, h >= 0; convex Lipschitz / weakly smooth), eq. (6);
* Corollary 3.8 (h = 0; c < 1 contractive, c = 1 nonexpansive, c > 1 expansive), (7), (8);
* Corollary 3.9 (strongly dissipative, c = 1 - 2 eta kappa + eta^2 beta^2, h = 2 eta lambda)
  and the two-sided integral estimate of its proof, whose lower half fails for c > 1.

Prior bounds the paper compares with: Altschuler & Talwar 2023 (c < 1),
alpha D^2 c^T/(2 sigma^2); Balle et al. 2019 (c > 1), alpha D^2 c^(T+1)/(2 sigma^2 T).

Symbols: alpha (Renyi order), sigma2 (noise variance per step), D (diameter), T (steps),
c, h (modulus), kappa, beta, lam (= lambda), eta.  Bounds are rounded up.
"""

from __future__ import annotations

import functools

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.bravo2025 import printed
from dpsym.papers.registry import cite
from dpsym.shifts.pabi import symbolic_optimum

__all__ = [
    "altschuler_talwar_2023",
    "balle_2019",
    "cor_3_7",
    "cor_3_8",
    "cor_3_8_limits",
    "cor_3_8_ratio",
    "cor_3_9",
    "cor_3_9_lower_estimate",
    "cor_3_9_sum",
    "cor_3_9_upper_estimate",
    "corollaries_symbolic",
    "eq_7_factor_T",
    "lower_estimate_crossing",
]

PAPER = "bravo2025"
REF_37 = cite(PAPER, "Cor. 3.7")
REF_38 = cite(PAPER, "Cor. 3.8")
REF_39 = cite(PAPER, "Cor. 3.9")


def _common(alpha: Number, sigma2: Number, D: Number, T: Number, ref: str
            ) -> tuple[mpf, mpf, mpf, int]:
    a = to_mpf(alpha, "alpha", ref)
    require(a >= 1, "alpha", alpha, "alpha >= 1", ref)
    s2 = to_mpf(sigma2, "sigma2", ref)
    require(s2 > 0, "sigma2", sigma2, "sigma^2 > 0", ref)
    Dv = to_mpf(D, "D", ref)
    require(Dv > 0, "D", D, "D > 0 (diameter)", ref)
    Ti = require_integer("T", T, ref, minimum=1)
    return a, s2, Dv, Ti


def _c(c: Number, ref: str) -> mpf:
    cv = to_mpf(c, "c", ref)
    require(cv > 0, "c", c, "c > 0", ref)
    return cv


def _geometric_ratio(c: mpf, T: int) -> mpf:
    """c^T (1 - c)/(1 - c^T) (= 1/T at c = 1), without cancellation near c = 1.

    Written as (c - 1)/(1 - c^-T) = expm1(l)/(-expm1(-T l)), l = log c.
    """
    if c == 1:
        return mpf(1) / T
    lc = mpmath.log(c)
    return mpmath.expm1(lc) / -mpmath.expm1(-T * lc)


def cor_3_7(alpha: Number, sigma2: Number, D: Number, T: Number, h: Number,
            form: str = "sum", dps: int = DEFAULT_DPS) -> mpf:
    """Corollary 3.7, eq. (6): modulus sqrt(delta^2 + h), h >= 0,

        R_alpha(X_T || X'_T) <= alpha/(2 sigma^2) (D^2/T + h sum_{t=1}^T 1/t)      ("sum")
                             <= alpha/(2 sigma^2) (D^2/T + h ln(T e))               ("log").
    """
    with precision(dps + GUARD_DPS):
        a, s2, Dv, Ti = _common(alpha, sigma2, D, T, REF_37)
        hv = to_mpf(h, "h", REF_37)
        require(hv >= 0, "h", h, "h >= 0", REF_37)
        require(form in ("sum", "log"), "form", form, "'sum' or 'log'", REF_37)
        H = mpmath.harmonic(Ti) if form == "sum" else mpmath.log(Ti) + 1
        out = a / (2 * s2) * (Dv ** 2 / Ti + hv * H)
    return round_up(out, dps)


def cor_3_8(alpha: Number, sigma2: Number, D: Number, T: Number, c: Number,
            dps: int = DEFAULT_DPS) -> mpf:
    """Corollary 3.8: modulus sqrt(c) delta (h = 0),

        c != 1:  R_alpha <= alpha D^2 c^T (1 - c) / (2 sigma^2 (1 - c^T))     (7)
        c == 1:  R_alpha <= alpha D^2 / (2 sigma^2 T)                          (8)

    (7) is the expression of Table 1, rows 3 and 5; (7) -> (8) as c -> 1, as the paper
    argues after (7) from lim (1-c)/(1-c^T) = 1/T.

    >>> from dpsym.numerics import nstr
    >>> nstr(cor_3_8(2, "0.2", 1, 6, "0.84"), 6)
    '0.433232'
    """
    with precision(dps + GUARD_DPS):
        a, s2, Dv, Ti = _common(alpha, sigma2, D, T, REF_38)
        cv = _c(c, REF_38)
        out = a * Dv ** 2 / (2 * s2) * _geometric_ratio(cv, Ti)
    return round_up(out, dps)


def eq_7_factor_T(alpha: Number, sigma2: Number, D: Number, T: Number, c: Number,
                  dps: int = DEFAULT_DPS) -> mpf:
    """(7) with a factor T in place of c^T: alpha D^2 T (1 - c) / (2 sigma^2 (1 - c^T)).

    Not the paper's statement.  It is the reading of (7) with the superscript dropped, kept
    to show why the paper must have c^T: this form differs from Theorem 3.4 by the factor
    T / c^T, from Table 1 (rows 3 and 5, which print c^T) likewise, and tends to
    alpha D^2/(2 sigma^2), not to (8), as c -> 1, contradicting the limit the paper takes
    right after (7).  Rounded up; c != 1.
    """
    with precision(dps + GUARD_DPS):
        a, s2, Dv, Ti = _common(alpha, sigma2, D, T, REF_38)
        cv = _c(c, REF_38)
        require(cv != 1, "c", c, "c != 1", REF_38)
        out = a * Dv ** 2 * Ti * (1 - cv) / (2 * s2 * (1 - cv ** Ti))
    return round_up(out, dps)


def cor_3_8_ratio(c: Number, T: Number, dps: int = DEFAULT_DPS) -> mpf:
    """(7) divided by Altschuler & Talwar 2023's alpha D^2 c^T/(2 sigma^2): (1-c)/(1-c^T).

    In [1/T, 1] for 0 < c < 1; -> 1/T as c -> 1.  Rounded up.
    """
    with precision(dps + GUARD_DPS):
        cv = _c(c, REF_38)
        Ti = require_integer("T", T, REF_38, minimum=1)
        out = mpf(1) / Ti if cv == 1 else _geometric_ratio(cv, Ti) / cv ** Ti
    return round_up(out, dps)


def altschuler_talwar_2023(alpha: Number, sigma2: Number, D: Number, T: Number, c: Number,
                           dps: int = DEFAULT_DPS) -> mpf:
    """The earlier bound for contractive maps (c < 1) quoted after Cor. 3.8:
    alpha D^2 c^T / (2 sigma^2) (Altschuler & Talwar 2023)."""
    ref = f"{REF_38} (Altschuler & Talwar 2023 as quoted)"
    with precision(dps + GUARD_DPS):
        a, s2, Dv, Ti = _common(alpha, sigma2, D, T, ref)
        cv = _c(c, ref)
        out = a * Dv ** 2 * cv ** Ti / (2 * s2)
    return round_up(out, dps)


def balle_2019(alpha: Number, sigma2: Number, D: Number, T: Number, c: Number,
               dps: int = DEFAULT_DPS) -> mpf:
    """The earlier bound for expansive maps (c > 1) quoted after Cor. 3.8:
    alpha D^2 c^(T+1) / (2 sigma^2 T) (Balle et al. 2019).  It diverges as T -> inf, unlike
    (7), which tends to alpha D^2 (c-1)/(2 sigma^2).
    """
    ref = f"{REF_38} (Balle et al. 2019 as quoted)"
    with precision(dps + GUARD_DPS):
        a, s2, Dv, Ti = _common(alpha, sigma2, D, T, ref)
        cv = _c(c, ref)
        out = a * Dv ** 2 * cv ** (Ti + 1) / (2 * s2 * Ti)
    return round_up(out, dps)


def cor_3_9_sum(c: Number, T: Number, dps: int = DEFAULT_DPS) -> mpf:
    """sum_{t=0}^{T-1} c^t / sum_{j=0}^t c^j, the h-coefficient in Corollary 3.9."""
    with precision(dps + GUARD_DPS):
        cv = _c(c, REF_39)
        Ti = require_integer("T", T, REF_39, minimum=1)
        total, partial, power = mpf(0), mpf(0), mpf(1)
        for _ in range(Ti):
            partial += power
            total += power / partial
            power *= cv
    with precision(dps):
        return +total


def cor_3_9_upper_estimate(c: Number, T: Number, dps: int = DEFAULT_DPS) -> mpf:
    """1 + ln((1 - c^T)/(1 - c)) (= 1 + ln T at c = 1): the paper's upper integral estimate."""
    with precision(dps + GUARD_DPS):
        cv = _c(c, REF_39)
        Ti = require_integer("T", T, REF_39, minimum=1)
        out = 1 + mpmath.log(Ti if cv == 1 else (1 - cv ** Ti) / (1 - cv))
    return round_up(out, dps)


def cor_3_9_lower_estimate(c: Number, T: Number, dps: int = DEFAULT_DPS) -> mpf:
    """1 + ln((1 - c^(T+1))/(1 - c^2)) (= 1 + ln((T+1)/2) at c = 1): the paper's lower
    estimate ("obtained through a similar argument").  It exceeds the sum for some c > 1
    (e.g. c = 3/2, T = 2).  Not rounded (it is compared, not used as a bound).
    """
    with precision(dps + GUARD_DPS):
        cv = _c(c, REF_39)
        Ti = require_integer("T", T, REF_39, minimum=1)
        out = 1 + mpmath.log(mpf(Ti + 1) / 2 if cv == 1 else (1 - cv ** (Ti + 1)) / (1 - cv ** 2))
    with precision(dps):
        return +out


def lower_estimate_crossing(T: Number, dps: int = DEFAULT_DPS) -> mpf:
    """The smallest c* > 1 at which the lower estimate equals the sum, for given T >= 2
    (the lower estimate is valid for c <= c* and fails just above).  Bisection on
    sum - lower over c in (1, 64]; raises if there is no crossing there.
    """
    Ti = require_integer("T", T, REF_39, minimum=2)
    with precision(dps + GUARD_DPS):
        def gap(c: mpf) -> mpf:
            return cor_3_9_sum(c, Ti, dps=mpmath.mp.dps) - cor_3_9_lower_estimate(
                c, Ti, dps=mpmath.mp.dps)

        lo, hi = mpf(1), mpf(1)
        while gap(hi) >= 0:
            lo, hi = hi, hi * 2
            require(hi <= 64, "T", T, "a crossing c* <= 64 (Cor. 3.9 lower estimate)", REF_39)
        for _ in range(mpmath.mp.prec):
            mid = (lo + hi) / 2
            if gap(mid) >= 0:
                lo = mid
            else:
                hi = mid
    with precision(dps):
        return +lo


def cor_3_9(alpha: Number, sigma2: Number, D: Number, T: Number, c: Number, h: Number,
            form: str = "sum", dps: int = DEFAULT_DPS) -> mpf:
    """Corollary 3.9: modulus sqrt(c delta^2 + h),

        R_alpha <= alpha/(2 sigma^2) ( D^2 c^T / sum_{t<T} c^t + h sum_{t<T} c^t/sum_{j<=t} c^j )
                                                                                    ("sum")
                <= alpha/(2 sigma^2) ( D^2 c^T (1-c)/(1-c^T) + h ln(e (1-c^T)/(1-c)) )
                                                                                    ("log").
    """
    with precision(dps + GUARD_DPS):
        a, s2, Dv, Ti = _common(alpha, sigma2, D, T, REF_39)
        cv = _c(c, REF_39)
        hv = to_mpf(h, "h", REF_39)
        require(hv >= 0, "h", h, "h >= 0", REF_39)
        require(form in ("sum", "log"), "form", form, "'sum' or 'log'", REF_39)
        p = mpmath.mp.dps
        coef = cor_3_9_sum(cv, Ti, dps=p) if form == "sum" else cor_3_9_upper_estimate(
            cv, Ti, dps=p)
        out = a / (2 * s2) * (Dv ** 2 * _geometric_ratio(cv, Ti) + hv * coef)
    return round_up(out, dps)


# --- sympy derivations ----------------------------------------------------------------------

@functools.cache
def corollaries_symbolic(T: int) -> list[Derivation]:
    """Corollaries 3.7, 3.8 and 3.9 (first inequality) from the Theorem 3.4
    value (:func:`dpsym.shifts.pabi.symbolic_optimum`) with constant data, exactly (sympy).

    Each Derivation compares E* (with c_t = c, h_t = h, sigma_t^2 = s) with the printed
    corollary (:mod:`dpsym.papers.bravo2025.printed`) times 2 / alpha.
    """
    Ti = require_integer("T", T, REF_37, minimum=1)
    _, value, sy = symbolic_optimum(Ti)
    c, h, s = sp.symbols("c h s", positive=True)
    D = sy["D"]
    sub = {**dict.fromkeys(sy["c"], c), **dict.fromkeys(sy["h"], h),
           **dict.fromkeys(sy["s"], s)}
    Ec = sp.together(value.subs(sub))

    def target(p: printed.Printed) -> sp.Expr:
        # the printed corollary times 2/alpha (so E*), at this T, in the symbols above
        S = printed.SYMBOLS
        e = printed.formula(p, T=Ti) * 2 / S["alpha"]
        return sp.simplify(e.subs({S["D"]: D, S["c"]: c, S["h"]: h, S["sigma"]: sp.sqrt(s)}))

    out = []
    e37, t37 = Ec.subs(c, 1), target(printed.COR_3_7)
    out.append(Derivation(e37, t37, sp.simplify(e37 - t37),
                          f"T={Ti}: Thm 3.4 at c=1 equals Cor. 3.7, (D^2/T + h H_T)/sigma^2"))
    e38, t38 = Ec.subs(h, 0), target(printed.EQ_7)
    out.append(Derivation(e38, t38, sp.simplify(sp.factor(e38 - t38)),
                          f"T={Ti}: Thm 3.4 at h=0 equals (7), D^2 c^T (1-c)/(1-c^T)/sigma^2"))
    t39 = target(printed.COR_3_9)
    out.append(Derivation(Ec, t39, sp.simplify(sp.factor(sp.together(Ec - t39))),
                          f"T={Ti}: Thm 3.4 with constant (c, h) equals Cor. 3.9's first form"))
    return out


def cor_3_8_limits() -> list[Derivation]:
    """sympy limits behind the comparisons after Corollary 3.8:

    (a) lim_{c -> 1} c^T (1-c)/(1-c^T) = 1/T (symbolic T): (7) -> (8);
    (b) for c = 1 + x > 1, lim_{T -> inf} (c-1)/(1 - c^-T) = c - 1: (7) stays bounded;
    (c) Balle et al. / (7) = c (c^T - 1)/(T (c-1)) = c (1 + c + .. + c^(T-1))/T >= c.
    """
    c = sp.Symbol("c", positive=True)
    x = sp.Symbol("x", positive=True)
    T = sp.Symbol("T", positive=True, integer=True)
    la = sp.limit(c ** T * (1 - c) / (1 - c ** T), c, 1)
    out = [Derivation(la, 1 / T, sp.simplify(la - 1 / T),
                      "lim_{c->1} c^T (1-c)/(1-c^T) = 1/T")]
    lb = sp.limit(x / (1 - (1 + x) ** (-T)), T, sp.oo)
    out.append(Derivation(lb, x, sp.simplify(lb - x),
                          "c = 1 + x: lim_{T->inf} (c-1)/(1 - c^-T) = c - 1"))
    ratio = (c ** (T + 1) / T) / (c ** T * (c - 1) / (c ** T - 1))
    target = c * (c ** T - 1) / (T * (c - 1))
    out.append(Derivation(ratio, target, sp.simplify(ratio - target),
                          "Balle et al. / (7) = c (c^T - 1)/(T (c - 1)) = c mean(1, c, .., "
                          "c^(T-1)) >= c > 1 for c > 1"))
    return out
