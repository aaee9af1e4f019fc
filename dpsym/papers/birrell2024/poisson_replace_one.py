"""Birrell et al. 2024, App. C.1: Poisson subsampling under replace-one adjacency (Thm C.9).

Under Poisson sampling the two mean shifts of a replace-one step obey (93):
|Delta mu|, |Delta mu'| <= r_t/2 but still |Delta mu - Delta mu'| <= r_t.  The q^2 term is
maximised exactly, (96); for the higher orders the paper replaces sigma by 2 sigma in (83)
and (89), arguing that they "only use bounds on the norms".  That is not so for the first
family of (80): Lemma C.5 bounds E[(X - Y)^k] by chi^k divergences between N_{Delta mu}
and N_{Delta mu'} (second inequality of Lemma C.4), whose means stay up to r_t apart.
This module holds the statement (:func:`thm_c_9`, with the sound ``"conservative"``
variant next to the printed one), the evidence of the gap (:func:`thm_c_9_step`,
:func:`thm_c_9_step_scan`), the search for a violation of the theorem's final inequality
(:func:`thm_c_9_violation_search`), and Figure 7's data in both variants.

Symbols: ``alpha`` the order, ``sigma`` the noise multiplier, ``q`` the Poisson rate,
``m`` the Taylor order, ``T`` the steps; shift pairs are (rho1, rho2, angle) with
|Delta mu| = rho1 r_t, |Delta mu'| = rho2 r_t.

>>> from dpsym.numerics import nstr
>>> nstr(thm_c_9(alpha=10, sigma=6, q="0.0024", m=4, dps=30), 6)
'3.20778e-6'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import mpmath
import numpy as np
from mpmath import mpf

from dpsym.errors import require, require_dps, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, nstr, precision, to_mpf
from dpsym.papers.birrell2024.add_remove import SIGMA, T_EPOCHS_250, Q, thm_3_3
from dpsym.papers.birrell2024.replace_one import ALPHAS_FIG3, eps_over_grid, eq_65, thm_3_4
from dpsym.papers.registry import cite
from dpsym.rdp.gaussian_mixture import (
    B_abs_moment,
    B_tilde,
    F_minus_1_collinear,
    F_minus_1_float64,
    log_F_collinear_float64,
)
from dpsym.rdp.taylor import (
    MAX_TAYLOR_ORDER,
    F_tilde,
    F_tilde_poisson_conservative,
    max_second_derivative,
    poisson_replace_one_rdp,
    second_derivative_max_value,
)
from dpsym.rdp.wang2019 import wang_lower_rdp, wang_upper_rdp

PAPER = "birrell2024"

__all__ = [
    "ALPHAS_FIG7",
    "CORNERS",
    "PRESCAN",
    "RATIO_QS",
    "SEARCH_BOX",
    "C9Step",
    "ViolationSearch",
    "bounds_finite",
    "eq_96",
    "eq_96_closed_form",
    "figure_7_curves",
    "figure_7_ordering",
    "thm_c_9",
    "thm_c_9_epsilon",
    "thm_c_9_ratio_curves",
    "thm_c_9_step",
    "thm_c_9_step_scan",
    "thm_c_9_violation_search",
    "worst_shift_pair",
]

#: Figure 7: alpha = linspace(50, 60, 100), m = 5.
ALPHAS_FIG7 = tuple(float(x) for x in np.linspace(50, 60, 100))
VARIANTS = ("paper", "conservative")


def thm_c_9(alpha: Number, sigma: Number, q: Number, m: int = 4, T: int = 1,
            variant: str = "paper", dps: int = DEFAULT_DPS) -> mpf:
    """Thm C.9 (98): Poisson replace-one RDP <= (1/(alpha-1)) log[1 + q^2 alpha(alpha-1)
    (e^{1/sigma^2} - e^{-1/sigma^2}) + sum_{k=3}^{m-1} q^k F~_{alpha,2sigma,k}/k!
    + E~_{alpha,2sigma,m}(q)], times T.

    ``variant="paper"`` is (98) as printed; ``"conservative"`` keeps sigma in the two chi^k
    terms of (80) that compare N_{Delta mu} with N_{Delta mu'}
    (:func:`dpsym.rdp.taylor.F_tilde_poisson_conservative`), the sound form (see
    :func:`thm_c_9_step`).  Rounded up.
    """
    require(variant in VARIANTS, "variant", variant, f"variant in {VARIANTS}",
            cite(PAPER, "Thm C.9"))
    return poisson_replace_one_rdp(alpha, sigma, q, m, steps=T, variant=variant, dps=dps)


def eq_96(sigma: Number, dps: int = 30) -> mpf:
    """max of F''(0)/(alpha(alpha-1)) under the Poisson constraints (93), numerically."""
    return max_second_derivative(sigma, "0.5", 1, dps=dps)[0]


def eq_96_closed_form(sigma: Number, dps: int = 30) -> mpf:
    """(67) at the maximiser of (96) (anti-parallel, |Delta mu| = |Delta mu'| = r_t/2), divided
    by alpha(alpha-1): 2(e^{1/sigma^2} - e^{-1/sigma^2})."""
    return second_derivative_max_value(sigma, "poisson", dps=dps)


# --- the sigma -> 2 sigma step ---------------------------------------------------------------


@dataclass(frozen=True)
class C9Step:
    """The k-th derivative of F at a Poisson-admissible pair against Thm C.9's bound.

    ``exact`` = F^(k)(0) of (65) at |Delta mu| = |Delta mu'| = r_t/2, anti-parallel (so
    |Delta mu - Delta mu'| = r_t); ``claimed`` = F~_{alpha,2sigma,k} of (98);
    ``conservative`` = its sound replacement; ``chi_coupled`` = D_chi^k(N_{Delta mu} ||
    N_{Delta mu'}) at that pair (= B_{sigma,k}, means r_t apart) and ``chi_claimed`` =
    B~_{2sigma,k}, what Lemma C.4's second inequality with 2 sigma would allow.
    """

    alpha: mpf
    sigma: mpf
    k: int
    exact: mpf
    claimed: mpf
    conservative: mpf
    chi_coupled: mpf
    chi_claimed: mpf

    @property
    def step_holds(self) -> bool:
        """Whether |F^(k)(0)| <= F~_{alpha,2sigma,k} at this pair."""
        return abs(self.exact) <= self.claimed


def thm_c_9_step(alpha: Number, sigma: Number, k: int, dps: int = 30) -> C9Step:
    """Thm C.9's sigma -> 2 sigma step in (83) at the anti-parallel Poisson pair.

    >>> s = thm_c_9_step(10, 6, 4)
    >>> nstr(s.exact, 6), nstr(s.claimed, 6), s.step_holds
    ('315.377', '170.112', False)
    """
    ref = cite(PAPER, "Thm C.9, eq. (83)")
    kk = require_integer("k", k, ref, minimum=3)
    with precision(dps):
        a, s = to_mpf(alpha, "alpha", ref), to_mpf(sigma, "sigma", ref)
        require(s > 0, "sigma", sigma, "sigma > 0", ref)
        exact = eq_65(kk, a, s, "0.5", "0.5", mpmath.pi, dps=dps)
        return C9Step(a, s, kk, exact, F_tilde(a, 2 * s, kk, dps=dps),
                      F_tilde_poisson_conservative(a, s, kk, dps=dps),
                      B_abs_moment(s, kk, dps=dps), B_tilde(2 * s, kk, dps=dps))


@functools.cache
def thm_c_9_step_scan(k: int, variant: str = "paper", sigmas: Sequence[Number] = (2, 6),
                      alphas: Sequence[Number] = ("2.5", 10, 50), norms: int = 6,
                      angles: int = 13, dps: int = 20) -> tuple[mpf, tuple]:
    """max |F^(k)(0)| / F~ over Poisson-admissible shift pairs (93) on a lattice.

    Norms rho1, rho2 in {0, 0.1, ..., 0.5} (``norms`` values), angles in [0, pi]
    (``angles`` values); F~ is F~_{alpha,2sigma,k} (``"paper"``) or the conservative one.
    Returns (worst ratio, (sigma, alpha, rho1, rho2, angle in degrees)).  A ratio > 1
    contradicts the bound used for the k-th Taylor coefficient.
    """
    ref = cite(PAPER, "Thm C.9")
    require(variant in VARIANTS, "variant", variant, f"variant in {VARIANTS}", ref)
    worst = (mpf(-1), ())
    for s in sigmas:
        for a in alphas:
            with precision(dps + GUARD_DPS):
                s2 = 2 * to_mpf(s, "sigma", ref)
            bound = (F_tilde(a, s2, k, dps=dps) if variant == "paper"
                     else F_tilde_poisson_conservative(a, s, k, dps=dps))
            for i in range(norms):
                for j in range(norms):
                    with precision(dps):
                        r1, r2 = mpf(i) / (2 * (norms - 1)), mpf(j) / (2 * (norms - 1))
                    for t in range(angles):
                        with precision(dps):
                            ang = mpmath.pi * t / (angles - 1)
                        v = eq_65(k, a, s, r1, r2, ang, dps=dps)
                        with precision(dps):
                            ratio = abs(v) / bound
                        if ratio > worst[0]:
                            where = (s, a, nstr(r1, 2), nstr(r2, 2), 180 * t // (angles - 1))
                            worst = (ratio, where)
    return worst


# --- the final inequality: a search for a violation -----------------------------------------


def worst_shift_pair(alpha: float, sigma: float, q: float, norms: int = 6,
                     angles: int = 13) -> tuple[float, float, float, float]:
    """The Poisson-admissible pair (93) maximising F_alpha(q) - 1 on a lattice (float64).

    Norms in {0, ..., 1/2} (``norms`` values) and angles in [0, pi] (``angles`` values),
    F by Gauss-Hermite (:func:`dpsym.rdp.gaussian_mixture.F_minus_1_float64`).  Returns
    (rho1, rho2, angle, F - 1) at the maximum.
    """
    r = np.linspace(0, 0.5, norms)
    ph = np.linspace(0, np.pi, angles)
    R1, R2, PH = np.meshgrid(r, r, ph, indexing="ij")
    vals = F_minus_1_float64(alpha, sigma, q, R1, R2, PH)
    i = np.unravel_index(int(np.argmax(vals)), vals.shape)
    return float(R1[i]), float(R2[i]), float(PH[i]), float(vals[i])


@dataclass(frozen=True)
class ViolationSearch:
    """Result of :func:`thm_c_9_violation_search`.

    ``points``: (alpha, sigma, q, m) compared; ``worst_ratio``: the largest exact/bound
    found, at ``worst`` = (alpha, sigma, q, m), confirmed at ``dps`` digits (``exact``,
    ``bound``); ``prescans``/``antiparallel_worst``: how many (alpha, sigma, q) had their
    shift pairs scanned, and in how many the anti-parallel saturated pair was the maximum.
    """

    box: str
    points: int
    worst_ratio: mpf
    worst: tuple
    exact: mpf
    bound: mpf
    prescans: int
    antiparallel_worst: int


#: The box of :func:`thm_c_9_violation_search` run by the ledger and chapter 05.
SEARCH_BOX = {
    "alphas": (1.5, 2, 3, 5, 10, 20, 50, 100),
    "sigmas": (0.7, 1, 2, 6, 30, 100),
    "qs": (1e-5, 1e-3, 0.0024, 0.05, 0.5),
    "ms": (4, 5, 6),
}
#: The (alpha, sigma, q) whose shift pairs :func:`thm_c_9_violation_search` scans.
PRESCAN = tuple((a, s, q) for a in (2, 50) for s in (2, 6, 30) for q in (0.0024, 0.2))


@functools.cache
def thm_c_9_violation_search(alphas: Sequence[float] = SEARCH_BOX["alphas"],
                             sigmas: Sequence[float] = SEARCH_BOX["sigmas"],
                             qs: Sequence[float] = SEARCH_BOX["qs"],
                             ms: Sequence[int] = SEARCH_BOX["ms"],
                             prescan: Sequence[tuple[float, float, float]] = PRESCAN,
                             confirm: int = 3, dps: int = 20) -> ViolationSearch:
    """max of (exact one-step divergence) / (Thm C.9 as printed) over a box.

    Exact: (1/(alpha-1)) log F_alpha(q) of (94) at the anti-parallel pair |Delta mu| =
    |Delta mu'| = r_t/2 (float64 quadrature, :func:`log_F_collinear_float64`), which a
    pre-scan over shift pairs at the ``prescan`` points (:func:`worst_shift_pair`)
    confirms as the maximiser.  Bound: :func:`thm_c_9` (``"paper"``) for each m.
    The ``confirm`` largest ratios are recomputed at ``dps`` digits (mpmath quadrature
    and bound).  A ratio > 1 would be a counterexample to the theorem's final inequality.
    """
    anti = sum(worst_shift_pair(a, s, q)[:3] == (0.5, 0.5, float(np.pi)) for a, s, q in prescan)
    cands = []
    for s in sigmas:
        for a in alphas:
            for q in qs:
                exact = log_F_collinear_float64(a, s, q) / (a - 1)
                for m in ms:
                    b = float(thm_c_9(a, s, q, m, dps=15))
                    cands.append((exact / b, (a, s, q, m)))
    cands.sort(key=lambda c: -c[0])
    best = None
    for _, (a, s, q, m) in cands[:confirm]:
        with precision(dps + 10):
            ex = mpmath.log1p(F_minus_1_collinear(a, s, q, dps=dps)) / (mpf(a) - 1)
            bd = thm_c_9(a, s, q, m, dps=dps)
            r = ex / bd
        if best is None or r > best[0]:
            best = (r, (a, s, q, m), ex, bd)
    box = (f"alpha in {list(alphas)}, sigma in {list(sigmas)}, q in {list(qs)}, "
           f"m in {list(ms)}")
    return ViolationSearch(box, len(cands), best[0], best[1], best[2], best[3], len(prescan),
                           anti)


# --- consequences: eps of Figure 4 (top), Figure 7 ---------------------------------------


def thm_c_9_epsilon(delta: Number = "1e-5", variant: str = "paper", m: int = 4,
                    dps: int = 20) -> tuple[mpf, float]:
    """(eps, order) of Figure 4 (top)'s Poisson curve: Thm C.9 (``variant``) over 250 epochs
    (T = 50000/120 * 250) on the Figure 3 order grid, Balle et al. 2020's conversion (one-step
    values cached per (variant, m, dps), shared by every delta)."""
    ref = cite(PAPER, "Thm C.9")
    dps = require_dps(dps, ref)
    m = require_integer("m", m, ref, minimum=1, maximum=MAX_TAYLOR_ORDER)
    require(isinstance(variant, str) and variant in VARIANTS, "variant", variant,
            f"variant in {VARIANTS}", ref)
    cache = _EPS_CACHES.setdefault((variant, m, dps), {})
    return eps_over_grid(lambda a: thm_c_9(a, SIGMA, Q, m, variant=variant, dps=dps + 5),
                         ALPHAS_FIG3, T_EPOCHS_250, delta, dps=dps, cache=cache)


_EPS_CACHES: dict[tuple[str, int, int], dict[int, mpf]] = {}


@functools.cache
def figure_7_curves(alphas: Sequence[float] = ALPHAS_FIG7, dps: int = 15) -> dict[str, list]:
    """Figure 7 data, m = 5: Thm C.9 as printed and sound, Thm 3.4, Wang upper on
    ``alphas``; Wang lower at the integers 50..60 (pairs (alpha, value))."""
    curves: dict[str, list] = {
        f"Thm C.9, {v}": [thm_c_9(a, SIGMA, Q, 5, variant=v, dps=dps) for a in alphas]
        for v in VARIANTS}
    curves["Thm 3.4"] = [thm_3_4(a, SIGMA, Q, 5, dps=dps) for a in alphas]
    curves["Wang et al. upper"] = [wang_upper_rdp(a, SIGMA, Q, dps=dps) for a in alphas]
    curves["Wang et al. lower"] = [(a, wang_lower_rdp(a, SIGMA, Q, dps=dps))
                                   for a in range(50, 61)]
    return curves


@functools.cache
def figure_7_ordering(variant: str, alphas: Sequence[int] = tuple(range(50, 61)),
                      dps: int = 20) -> list[tuple[int, bool, mpf, mpf]]:
    """Figure 7's message at integer alpha: Thm C.9 (m = 5, ``variant``) < Wang lower <
    Thm 3.4 (m = 5) < Wang upper.  Rows (alpha, ordered, C.9, Wang lower)."""
    rows = []
    for a in alphas:
        v = [thm_c_9(a, SIGMA, Q, 5, variant=variant, dps=dps),
             wang_lower_rdp(a, SIGMA, Q, dps=dps), thm_3_4(a, SIGMA, Q, 5, dps=dps),
             wang_upper_rdp(a, SIGMA, Q, dps=dps)]
        rows.append((a, all(v[i] < v[i + 1] for i in range(3)), v[0], v[1]))
    return rows


#: q at which :func:`thm_c_9_ratio_curves` evaluates (1e-5 to 0.5, 25 log-spaced).
RATIO_QS = tuple(float(x) for x in np.logspace(-5, np.log10(0.5), 25))


@functools.cache
def thm_c_9_ratio_curves(alphas: Sequence[float] = (2, 10, 50), sigma: float = 6, m: int = 5,
                         qs: Sequence[float] = RATIO_QS
                         ) -> tuple[tuple[float, ...], dict[float, list[float]]]:
    """exact/bound against q for each alpha (float64 exact at the anti-parallel pair, Thm C.9
    as printed): the data of the figure ``thm_c_9_exact_over_bound``."""
    rows = {a: [log_F_collinear_float64(a, sigma, q) / (a - 1)
                / float(thm_c_9(a, sigma, q, m, dps=15)) for q in qs] for a in alphas}
    return tuple(qs), rows


#: (alpha, sigma, q) corners of the domain alpha in (1, 256], sigma in [0.5, 200],
#: q in [1e-8, 0.5], and interior points, for :func:`bounds_finite`.
CORNERS = (("256", "200", "0.5"), ("256", "0.5", "1e-8"), ("1.0001", "200", "1e-8"),
           ("1.0001", "0.5", "0.5"), ("37.5", "0.5", "1e-8"), ("1.5", "20", "0.0024"))


def bounds_finite(points: Sequence[tuple] = CORNERS, dps: int = 15) -> list[tuple]:
    """The (alpha, sigma, q) at which Thm 3.3 (m = 3), Thm 3.4 (m = 4), Thm C.9 (m = 4, both
    variants) or Wang's upper bound is not a finite number >= 0, or at which an upper bound on
    a FSwoR RDP lies below a lower bound on it (empty: none).

    The lower bound is Wang et al.'s (133) at k = floor(alpha) >= 2, rounded down: it is the
    exact add/remove RDP log H_{k,sigma}(q)/(k - 1) of Thm 3.1 (attained) and a lower bound on
    the replace-one RDP, and RDP does not decrease in the order, so Thm 3.3 (add/remove),
    Thm 3.4 and Wang's upper bound (replace-one) at alpha >= k must lie above it.  (Finite
    alone would pass any wrong number.)
    """
    from dpsym.rdp.wang2019 import wang_lower_rdp

    bad = []
    for a, s, q in points:
        vals = [thm_3_3(a, s, q, 3, dps=dps), thm_3_4(a, s, q, 4, dps=dps),
                *(thm_c_9(a, s, q, 4, variant=v, dps=dps) for v in VARIANTS),
                wang_upper_rdp(a, s, q, dps=dps)]
        if not all(mpmath.isfinite(v) and v >= 0 for v in vals):
            bad.append((a, s, q))
            continue
        k = int(mpmath.floor(mpmath.mpf(a)))
        if k >= 2:
            low = wang_lower_rdp(k, s, q, dps=dps)
            if min(vals[0], vals[1], vals[-1]) < low:
                bad.append((a, s, q, "below the lower bound"))
    return bad
