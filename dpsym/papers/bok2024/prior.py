"""The prior RDP bounds of Ye & Shokri 2022 (YS22) that Bok et al. 2024 compare against.

Bok et al. cite [YS22, Thm D.6] (full-batch NoisyGD, Figure 1) and [YS22, Thm 3.3]
(cyclic NoisyCGD, Tables 1 and 4) but do not restate them; YS22 is not in dpsym's
corpus.  The two bounds below are therefore the bounds *as evaluated in Bok et al.'s
public script* (repository jinhobok/shifted_interpolation_dp), which is what the printed
numbers come from.  Both are zCDP-type curves: the mechanism is (alpha, alpha rho)-RDP for
every alpha > 1, and :func:`dpsym.papers.bok2024.app_a1_epsilon` converts rho to eps.
Each formula is a sympy expression (:func:`ys22_thm_d_6_symbolic`,
:func:`ys22_thm_3_3_symbolic`); the numbers are evaluated from it.
"""

from __future__ import annotations

from functools import cache

import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.shifts import lemma_c6_symbolic

__all__ = [
    "ys22_ratio_limit",
    "ys22_thm_3_3_rho",
    "ys22_thm_3_3_symbolic",
    "ys22_thm_d_6_rho",
    "ys22_thm_d_6_symbolic",
]

_EFF, _C, _CP, _T, _L, _E = sp.symbols("x c c_p t l E", positive=True)


@cache
def ys22_thm_d_6_symbolic() -> sp.Expr:
    """rho of [YS22, Thm D.6] as coded by Bok et al., in the symbols x = L/(n sigma), c, c_p
    (= c'), t: rho = (1 + c)/(1 - c) (1 - c'^t) x^2.

    >>> ys22_thm_d_6_symbolic()
    x**2*(1 - c_p**t)*(c + 1)/(1 - c)
    """
    return (1 + _C) / (1 - _C) * (1 - _CP**_T) * _EFF**2


@cache
def ys22_thm_3_3_symbolic() -> sp.Expr:
    """rho of [YS22, Thm 3.3] as coded by Bok et al., in x = L/(b sigma), c, l, E:
    rho = x^2/2 (1 + c^(l-2) (1 - c^2)/(1 - c^l)^2 (1 - c^(l(E-1)))).

    >>> ys22_thm_3_3_symbolic().subs(_E, 1)
    x**2/2
    """
    tail = _C ** (_L - 2) * (1 - _C**2) / (1 - _C**_L) ** 2 * (1 - _C ** (_L * (_E - 1)))
    return _EFF**2 / 2 * (1 + tail)


def ys22_thm_d_6_rho(L_over_n_sigma: Number, c: Number, c_prime: Number, t: int,
                     dps: int = DEFAULT_DPS) -> mpf:
    """[YS22, Thm D.6] as coded by Bok et al.: NoisyGD after t steps is (alpha, alpha rho)-RDP,
    rho from :func:`ys22_thm_d_6_symbolic`, with c' = 1 - eta m / 2 in the script
    (0.975 for Figure 1's eta = 0.05, m = 1).  Rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(ys22_thm_d_6_rho("0.1", "0.95", "0.975", 160, dps=30), 10)
    '0.383211042'
    """
    ref = "Ye & Shokri 2022, Thm D.6 (as in Bok et al. 2024, Fig. 1)"
    t = require_integer("t", t, ref, minimum=1)
    f = sp.lambdify((_EFF, _C, _CP, _T), ys22_thm_d_6_symbolic(), "mpmath")
    with precision(dps + GUARD_DPS):
        eff = to_mpf(L_over_n_sigma, "L/(n sigma)", ref)
        cv, cp = to_mpf(c, "c", ref), to_mpf(c_prime, "c'", ref)
        require(eff >= 0, "L/(n sigma)", L_over_n_sigma, "L/(n sigma) >= 0", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        require(0 < cp < 1, "c'", c_prime, "0 < c' < 1", ref)
        rho = f(eff, cv, cp, mpf(t))
    return round_up(rho, dps)


def ys22_thm_3_3_rho(L_over_b_sigma: Number, c: Number, l: int, E: int,
                     dps: int = DEFAULT_DPS) -> mpf:
    """[YS22, Thm 3.3] as coded by Bok et al.: NoisyCGD with l batches after E epochs is
    (alpha, alpha rho)-RDP, rho from :func:`ys22_thm_3_3_symbolic`.  Rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(ys22_thm_3_3_rho("2/3", "0.9999", 40, 50, dps=30), 10)
    '0.716679125'
    """
    ref = "Ye & Shokri 2022, Thm 3.3 (as in Bok et al. 2024, Tables 1, 4)"
    l = require_integer("l", l, ref, minimum=2)
    E = require_integer("E", E, ref, minimum=1)
    f = sp.lambdify((_EFF, _C, _L, _E), ys22_thm_3_3_symbolic(), "mpmath")
    with precision(dps + GUARD_DPS):
        eff = to_mpf(L_over_b_sigma, "L_over_b_sigma", ref)
        cv = to_mpf(c, "c", ref)
        require(eff >= 0, "L_over_b_sigma", L_over_b_sigma, "L/(b sigma) >= 0", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        rho = f(eff, cv, mpf(l), mpf(E))
    return round_up(rho, dps)


def ys22_ratio_limit() -> sp.Expr:
    """lim_{t -> oo} rho_YS22 / rho_ours for full-batch NoisyGD, by sympy, where rho_ours =
    mu^2/2 of Thm 4.2 (Lemma A.4; mu^2 = Lemma C.6's value / sigma^2) and rho_YS22 is
    [YS22, Thm D.6] with the same x = L/(n sigma), for every 0 < c, c' < 1 (written
    c = e^-u, c' = e^-v so that sympy knows the powers vanish): 2, the factor of Figure 1.

    >>> ys22_ratio_limit()
    2
    """
    d = lemma_c6_symbolic()
    ours = (d.value / d.s**2).subs({d.c: _C, d.t: _T}) * _EFF**2 / 2
    u, v = sp.symbols("u v", positive=True)
    ratio = (ys22_thm_d_6_symbolic() / ours).subs({_C: sp.exp(-u), _CP: sp.exp(-v)})
    return sp.simplify(sp.limit(sp.simplify(ratio), _T, sp.oo))
