"""The prior RDP bounds of Ye & Shokri 2022 (YS22) that Bok et al. 2024 compare against.

Bok et al. cite [YS22, Thm D.6] (full-batch NoisyGD, Figure 1) and [YS22, Thm 3.3]
(cyclic NoisyCGD, Tables 1 and 4) but do not restate them; YS22 is not in dpsym's
corpus.  The two functions below are therefore the bounds *as evaluated in Bok et al.'s
public script*, which is what the printed numbers come from.  Both are zCDP-type curves:
the mechanism is (alpha, alpha rho)-RDP for every alpha > 1, and
:func:`dpsym.papers.bok2024.app_a1_epsilon` converts rho to eps.
"""

from __future__ import annotations

from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf

__all__ = ["ys22_thm_3_3_rho", "ys22_thm_d_6_rho"]


def ys22_thm_d_6_rho(L_over_n_sigma: Number, c: Number, c_prime: Number, t: int,
                     dps: int = DEFAULT_DPS) -> mpf:
    """[YS22, Thm D.6] as coded by Bok et al.: NoisyGD after t steps is (alpha, alpha rho)-RDP,
    rho = (1 + c)/(1 - c) (1 - c'^t) (L/(n sigma))^2, with c' = 1 - eta m / 2 in the script
    (0.975 for Figure 1's eta = 0.05, m = 1).  Rounded up."""
    ref = "Ye & Shokri 2022, Thm D.6 (as in Bok et al. 2024, Fig. 1)"
    t = require_integer("t", t, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        eff = to_mpf(L_over_n_sigma, "L/(n sigma)", ref)
        cv, cp = to_mpf(c, "c", ref), to_mpf(c_prime, "c'", ref)
        require(eff >= 0, "L/(n sigma)", L_over_n_sigma, "L/(n sigma) >= 0", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        require(0 < cp < 1, "c'", c_prime, "0 < c' < 1", ref)
        rho = (1 + cv) / (1 - cv) * (1 - cp**t) * eff**2
    return round_up(rho, dps)


def ys22_thm_3_3_rho(L_over_b_sigma: Number, c: Number, l: int, E: int,
                     dps: int = DEFAULT_DPS) -> mpf:
    """[YS22, Thm 3.3] as coded by Bok et al.: NoisyCGD with l batches after E epochs is
    (alpha, alpha rho)-RDP with
    rho = (L/(b sigma))^2 / 2 (1 + c^(l-2) (1 - c^2)/(1 - c^l)^2 (1 - c^(l(E-1)))).
    Rounded up."""
    ref = "Ye & Shokri 2022, Thm 3.3 (as in Bok et al. 2024, Tables 1, 4)"
    l = require_integer("l", l, ref, minimum=2)
    E = require_integer("E", E, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        eff = to_mpf(L_over_b_sigma, "L/(b sigma)", ref)
        cv = to_mpf(c, "c", ref)
        require(eff >= 0, "L/(b sigma)", L_over_b_sigma, "L/(b sigma) >= 0", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        tail = cv ** (l - 2) * (1 - cv**2) / (1 - cv**l) ** 2 * (1 - cv ** (l * (E - 1)))
        rho = eff**2 / 2 * (1 + tail)
    return round_up(rho, dps)
