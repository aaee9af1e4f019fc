"""Birrell, Ebrahimi, Behnia & Pacheco 2024: FSwR, fixed-size minibatches WITH replacement.

Sec. 3.3 and App. D.  Each numbered statement is a function of the paper's symbols:
``alpha`` the Renyi order, ``sigma`` the noise multiplier, ``B`` = |B| the batch size,
``D`` = |D| (Thm 3.6) or ``N`` (Thm 3.7) the dataset size, ``q`` = |B|/|D|, ``T`` the
number of steps, ``m`` the Taylor order, ``K`` the number of expanded mixture
components.  The mathematics lives in :mod:`dpsym.rdp.fixed_size_replacement`.

>>> from dpsym.papers.birrell2024.fswr import thm_3_6, thm_3_7
>>> from dpsym.numerics import nstr
>>> nstr(thm_3_6(alpha=2, sigma=6, B=120, D=50000, dps=20), 6)
'295.593'
>>> nstr(thm_3_7(alpha=2, sigma=6, B=120, N=50000, dps=20), 6)
'6.77099e-7'
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import mpmath
import numpy as np
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.figures import figure, new_figure
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.birrell2024.add_remove import BATCH, D_SIZE, SIGMA, T_TRAINING, thm_3_3
from dpsym.rdp.conversions import epsilon_from_rdp, optimize_order, rdp_to_epsilon
from dpsym.rdp.fixed_size_replacement import (
    a_tilde,
    crude_lower_bound_rdp,
    log_F_bruteforce,
    lower_bound_curve,
    lower_bound_rdp,
    q_tilde,
    upper_bound_blowup_order,
    upper_bound_floor,
    upper_bound_rdp,
    worst_case_mixture_rdp,
)

__all__ = [
    "ALPHAS_FIG9",
    "BATCHES_FIG1",
    "Q_FIG1",
    "SIGMAS_FIG8",
    "epsilon_consequence",
    "epsilon_floors",
    "eq_116",
    "eq_117",
    "eq_120",
    "eq_120_zero",
    "figure_1",
    "figure_1_values",
    "figure_8",
    "figure_8_values",
    "figure_9",
    "figure_9_curves",
    "thm_3_6",
    "thm_3_6_blowup_order",
    "thm_3_6_floor",
    "thm_3_6_weights",
    "thm_3_7",
]

#: Figure 1: sigma = 6, q = 0.001, |D| = |B|/q, integer alpha = 2..10.
Q_FIG1 = "0.001"
BATCHES_FIG1 = (20, 30, 40, 60, 80)
#: Figure 8: alpha = 2, q = 0.001, |B| = 2..200.
SIGMAS_FIG8 = (2, 3, 4, 5, 6)
#: Figure 9 (``fs_rdp_bounds_figs.py``): {2..10} u linspace(1.001, 10, 500), sorted.
ALPHAS_FIG9 = sorted({float(a) for a in range(2, 11)}
                     | {float(x) for x in np.linspace(1.001, 10, 500)})


def _dataset_size(B: int, q: Number) -> int:
    with precision(30):
        d = to_mpf(B, "B") / to_mpf(q, "q")
        n = int(mpmath.nint(d))
    return n


def _times(T: Number, value: mpf, dps: int) -> mpf:
    with precision(dps + GUARD_DPS):
        out = to_mpf(T, "T", "Birrell et al. 2024, eq. (16)") * value
    return round_up(out, dps)


def thm_3_6(alpha: Number, sigma: Number, B: int, D: int, T: Number = 1, m: int = 4,
            K: int | None = None, h: str = "min", dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 3.6 (and App. D.1, eq. (112) for K < |B|): FSwR RDP upper bound, add/remove.

    eps_[0,T](alpha) <= T/(alpha-1) log[ sum_{n=1}^{|B|} a~_n H_{alpha, sigma/n}(q~) ] with
    q~ = 1 - (1 - 1/|D|)^{|B|}, a~_n = C(|B|,n) |D|^{-n} (1-1/|D|)^{|B|-n} / q~, for
    |D| > |B|.  H is bounded as ``h`` says ("min" of the Taylor bound at order ``m`` and
    the convexity bound; "taylor"; "convexity"; "exact").  ``K=3, m=4`` is what the
    authors' code computes.  Rounded up.
    """
    return _times(T, upper_bound_rdp(alpha, sigma, B, D, K=K, m=m, h=h, dps=dps + 5), dps)


def thm_3_6_weights(B: int, D: int, dps: int = DEFAULT_DPS) -> tuple[mpf, list[mpf]]:
    """(q~, [a~_1..a~_|B|]) of Thm 3.6."""
    return q_tilde(B, D, dps=dps), a_tilde(B, D, dps=dps)


def thm_3_6_floor(alpha: Number, sigma: Number, B: int, D: int, K: int | None = None,
                  dps: int = DEFAULT_DPS) -> mpf:
    """The smallest value eq. (112) takes with ANY bound on H, the exact H included."""
    return upper_bound_floor(alpha, sigma, B, D, K=K, dps=dps)


def thm_3_6_blowup_order(sigma: Number = SIGMA, B: int = BATCH, D: int = D_SIZE,
                         dps: int = 30) -> mpf:
    """Order above which the n = |B| component alone makes Thm 3.6's bracket exceed ~2."""
    return upper_bound_blowup_order(sigma, B, D, dps=dps)


def thm_3_7(alpha: int, sigma: Number, B: int, N: int, index_sets: object = None,
            dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 3.7: FSwR one-step RDP lower bound at integer alpha >= 2 (eq. (17)).

    (1/(alpha-1)) log sum_{n_1..n_alpha} a_{n_1}...a_{n_alpha} exp(4/sigma^2 sum_{i<j} n_i n_j),
    a_n = C(|B|,n) N^{-n} (1-1/N)^{|B|-n}, under the theorem's hypothesis that anti-parallel
    saturated clipped gradients exist.  ``index_sets``: None (exact), "figure9", "figure1"
    or k -> T_k (eq. (126), a smaller valid lower bound).  Rounded down.
    """
    return lower_bound_rdp(alpha, sigma, B, N, index_sets=index_sets, dps=dps)


def eq_116(alpha: Number, sigma: Number, B: int, N: int, dps: int = 30) -> mpf:
    """Eq. (116) at real alpha > 1: D_alpha(sum_n a_n N(n, sigma^2/4) || N(0, sigma^2/4))."""
    return worst_case_mixture_rdp(alpha, sigma, B, N, dps=dps)


def eq_117(alpha: int, sigma: Number, B: int, N: int, dps: int = DEFAULT_DPS) -> mpf:
    """Eq. (117)-(118) summed term by term (all (|B|+1)^alpha index tuples), / (alpha-1)."""
    v = log_F_bruteforce(alpha, sigma, B, N, dps=dps + 5)
    with precision(dps + 5):
        out = v / (alpha - 1)
    with precision(dps):
        return +out


def eq_120(alpha: Number, sigma: Number, B: int, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Eq. (120): alpha |B|/(alpha-1) (2 |B| (alpha-1)/sigma^2 - log|B| - log(1/q))."""
    return crude_lower_bound_rdp(alpha, sigma, B, q, dps=dps)


# --- the consequence of the blow-up for (eps, delta) ---------------------------------------
def eq_120_zero(sigma: Number, B: int, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """The order alpha_L > 1 at which (120) turns positive: 1 + sigma^2 (log|B| + log(1/q))/(2|B|).

    Above alpha_L the FSwR RDP is at least (120), which then grows like 2 alpha |B|^2/sigma^2.
    """
    with precision(dps + GUARD_DPS):
        s = to_mpf(sigma, "sigma", "Birrell et al. 2024, eq. (120)")
        qv = to_mpf(q, "q", "Birrell et al. 2024, eq. (120)")
        out = 1 + s * s * (mpmath.log(B) + mpmath.log(1 / qv)) / (2 * B)
    with precision(dps):
        return +out



def epsilon_consequence(delta: Number = "1e-5", T: Number = T_TRAINING, sigma: Number = SIGMA,
                        B: int = BATCH, D: int = D_SIZE, dps: int = 20) -> dict[str, tuple]:
    """(eps, order) at ``delta`` after T steps for the FSwR bounds vs FSwoR (Balle et al. 2020).

    * ``thm_3_6``: Thm 3.6 (K = |B|, min(Taylor m=4, convexity)), best of 40 orders
      1 + 10^linspace(-2, 1, 40);
    * ``integer_exact``: the exact Thm 3.7 value at alpha = 2, 3 (higher orders are
      worse).  At integer alpha it is also the maximum of the right side of (104)
      (removal direction), so this column is what the paper's own decomposition allows at
      integer orders;
    * ``floor``: no RDP curve that respects the real-alpha lower bound (120) can give a
      smaller eps: for alpha >= alpha_L (where (120) exceeds the RDP budget) the RDP term
      alone is too large, below it the conversion term alone is;
    * ``fswor``: FSwoR add/remove, Thm 3.3 with m = 4, same q = |B|/|D|.
    """
    out: dict[str, tuple] = {}
    with precision(dps + GUARD_DPS):
        tv = to_mpf(T, "T")
        d = to_mpf(delta, "delta")

    # Thm 3.6 on the order grid 1 + 10^linspace(-2, 1, 40) (any order gives a valid eps).
    grid = [1 + mpf(10) ** (mpf(-2) + 3 * mpf(i) / 39) for i in range(40)]
    ups = [upper_bound_rdp(a, sigma, B, D, m=4, dps=dps) for a in grid]
    with precision(dps + GUARD_DPS):
        out["thm_3_6"] = rdp_to_epsilon(grid, [tv * v for v in ups], delta, dps=dps)
    # D_alpha is non-decreasing in alpha and the exact value at alpha = 3 already exceeds
    # 400 per step, so orders above 3 cannot help.
    orders = [2, 3]
    low = lower_bound_curve(orders, sigma, B, D, dps=dps)
    with precision(dps + GUARD_DPS):
        out["integer_exact"] = rdp_to_epsilon(orders, [tv * v for v in low], delta, dps=dps)
        q = mpf(B) / D
        # Any RDP curve must be >= (120) at every real alpha; scan alpha in (1, 3].
        best = None
        for i in range(1, 201):
            a = 1 + mpf(i) / 100
            crude = max(crude_lower_bound_rdp(a, sigma, B, q, dps=dps), mpf(0))
            e = epsilon_from_rdp(a, tv * crude, d, dps=dps)
            if best is None or e < best[0]:
                best = (e, a)
        out["floor"] = best

    def wo(a: mpf, p: int) -> mpf:
        return tv * thm_3_3(a, sigma, Fraction(B, D), m=4, dps=p)

    out["fswor"] = optimize_order(wo, delta, alpha_min="1.01", alpha_max=256, search_dps=15,
                                  dps=dps)
    return out


def epsilon_floors(delta: Number = "1e-5", T: Number = T_TRAINING, sigma: Number = SIGMA,
                   B: int = BATCH, D: int = D_SIZE, dps: int = 20) -> dict[str, tuple]:
    """Cheap brackets of :func:`epsilon_consequence` (closed forms, a handful of bounds).

    * ``thm_3_6``: eps at the order 1 + 0.98 (alpha_c - 1), just below the blow-up;
    * ``thm_3_6_floor``: no order gives Thm 3.6 a smaller eps: below alpha_c the
      conversion term log((a-1)/a) - (log delta + log a)/(a-1), which decreases on (1, 3],
      is already at least its value at alpha_c; above alpha_c the floor of (112) times T
      exceeds it;
    * ``integer_exact``: exact Thm 3.7 at alpha = 2 and 3 (the max of (104));
    * ``any_rdp_floor``: min over alpha in (1, 3] of the conversion with RDP T * max(0, (120));
    * ``fswor``: Thm 3.3 (m = 4) on the orders 2..64.
    """
    out: dict[str, tuple] = {}
    with precision(dps + GUARD_DPS):
        tv = to_mpf(T, "T")
        d = to_mpf(delta, "delta")
        q = mpf(B) / D
        ac = upper_bound_blowup_order(sigma, B, D, dps=dps)
        a1 = 1 + (ac - 1) * mpf("0.98")
        out["thm_3_6"] = (epsilon_from_rdp(a1, tv * upper_bound_rdp(a1, sigma, B, D, dps=dps), d,
                                           dps=dps), a1)
        out["thm_3_6_floor"] = (epsilon_from_rdp(ac, 0, d, dps=dps), ac)
        low = lower_bound_curve([2, 3], sigma, B, D, dps=dps)
        out["integer_exact"] = rdp_to_epsilon([2, 3], [tv * v for v in low], d, dps=dps)
        best = None
        for i in range(1, 201):
            a = 1 + mpf(i) / 100
            crude = max(crude_lower_bound_rdp(a, sigma, B, q, dps=dps), mpf(0))
            e = epsilon_from_rdp(a, tv * crude, d, dps=dps)
            if best is None or e < best[0]:
                best = (e, a)
        out["any_rdp_floor"] = best
        orders = list(range(2, 65))
        wo = [tv * thm_3_3(a, sigma, q, m=4, dps=dps) for a in orders]
        out["fswor"] = rdp_to_epsilon(orders, wo, d, dps=dps)
    return out


# --- figures -------------------------------------------------------------------------------

def figure_1_values(convention: str = "figure1", batches: Sequence[int] = BATCHES_FIG1,
                    alphas: Sequence[int] = tuple(range(2, 11)), dps: int = 20
                    ) -> dict[int, list[mpf]]:
    """Thm 3.7 at sigma = 6, q = 0.001 (|D| = |B|/q), per batch size, alpha = 2..10.

    ``convention="figure1"`` truncates as the paper's text says (T_2 = all,
    T_k = {0, 1, 2, |B|}); ``"exact"`` is the untruncated bound (larger or equal).
    """
    return {b: lower_bound_curve(alphas, SIGMA, b, _dataset_size(b, Q_FIG1),
                                 index_sets=convention, dps=dps) for b in batches}


@figure("birrell2024", "figure_1", "FSwR RDP lower bounds (Thm 3.7) vs alpha (Fig. 1)")
def figure_1(exact: dict[int, list[mpf]] | None = None,
             truncated: dict[int, list[mpf]] | None = None) -> Figure:
    """Figure 1: Thm 3.7 vs alpha for |B| in {20, 30, 40, 60, 80}, sigma = 6, q = 0.001.

    Lines: the exact bound (for the batch sizes in ``exact``); crosses: the paper's
    truncation T_k = {0, 1, 2, |B|} (for the batch sizes in ``truncated``).
    """
    exact = figure_1_values("exact") if exact is None else exact
    truncated = figure_1_values("figure1") if truncated is None else truncated
    alphas = list(range(2, 11))
    fig, ax = new_figure(width=5.2, height=3.8)
    for i, b in enumerate(sorted(set(exact) | set(truncated))):
        color = f"C{i}"
        if b in exact:
            ax.plot(alphas, [float(v) for v in exact[b]], "-o", markersize=4, color=color,
                    label=f"|B|={b}")
        if b in truncated:
            ax.plot(alphas, [float(v) for v in truncated[b]], "x", color=color, markersize=7,
                    label=None if b in exact else f"|B|={b}")
    ax.plot([], [], "kx", label=r"$T_k=\{0,1,2,|B|\}$ (paper)")
    ax.set_yscale("log")
    ax.set_xlabel(r"$\alpha$")
    ax.set_ylabel("FSwR-RDP lower bound (one step)")
    ax.set_title(r"Thm 3.7, $\sigma=6$, $q=0.001$ (lines: exact)")
    ax.legend(loc="lower right", fontsize=7)
    return fig


def figure_8_values(batches: Sequence[int] = tuple(range(2, 201, 2)),
                    sigmas: Sequence[Number] = SIGMAS_FIG8, dps: int = 20
                    ) -> dict[Number, list[mpf]]:
    """Exact Thm 3.7 at alpha = 2, q = 0.001 (|D| = |B|/q), as a function of |B|."""
    return {s: [lower_bound_rdp(2, s, b, _dataset_size(b, Q_FIG1), dps=dps) for b in batches]
            for s in sigmas}


@figure("birrell2024", "figure_8", "FSwR RDP lower bound at alpha = 2 vs |B| (Fig. 8)")
def figure_8(values: dict[Number, list[mpf]] | None = None,
             batches: Sequence[int] = tuple(range(2, 201, 2))) -> Figure:
    """Figure 8: exact Thm 3.7 at alpha = 2 vs |B| for sigma in {2..6}, q = 0.001."""
    values = values or figure_8_values(batches)
    fig, ax = new_figure(width=5.2, height=3.8)
    for s, vals in values.items():
        ax.plot(batches, [float(v) for v in vals], label=rf"$\sigma={s}$")
    ax.set_yscale("log")
    ax.set_xlabel("|B|")
    ax.set_ylabel(r"FSwR-RDP lower bound, $\alpha=2$")
    ax.set_title(r"Thm 3.7 (exact), $q=0.001$")
    ax.legend(loc="center right")
    return fig


def figure_9_curves(alphas: Sequence[float] = ALPHAS_FIG9, dps: int = 15) -> dict[str, list]:
    """Figure 9 data at sigma = 6, |B| = 120, |D| = 50,000 (one step).

    ``upper``: Thm 3.6 (K = |B|, min(Taylor m = 4, convexity)); ``authors``: K = 3 (the
    authors' code); ``fswor``: Thm 3.3 with m = 4; ``lower``: Thm 3.7 at alpha = 2..10 with
    the Figure 9 index sets (T_2 = all, T_k = {|B|}).
    """
    q = Fraction(BATCH, D_SIZE)
    return {
        "alphas": list(alphas),
        "upper": [upper_bound_rdp(a, SIGMA, BATCH, D_SIZE, m=4, dps=dps) for a in alphas],
        "authors": [upper_bound_rdp(a, SIGMA, BATCH, D_SIZE, K=3, m=4, dps=dps) for a in alphas],
        "fswor": [thm_3_3(a, SIGMA, q, m=4, dps=dps) for a in alphas],
        "lower": lower_bound_curve(range(2, 11), SIGMA, BATCH, D_SIZE, index_sets="figure9",
                                   dps=dps),
    }


@figure("birrell2024", "figure_9", "FSwR upper (Thm 3.6) and lower (Thm 3.7) bounds (Fig. 9)")
def figure_9(curves: dict[str, list] | None = None) -> Figure:
    """Figure 9: FSwR upper bound (solid), lower bound (circles), FSwoR a/r (dashed)."""
    c = curves or figure_9_curves()
    al = c["alphas"]
    fig, ax = new_figure(width=5.2, height=3.8)
    ax.plot(al, [float(v) for v in c["upper"]], "k-", label="FSwR upper, Thm 3.6 (K=|B|)")
    ax.plot(al, [float(v) for v in c["authors"]], ":", color="#d1495b",
            label="FSwR upper, K=3 (authors' code)")
    ax.plot(range(2, 11), [float(v) for v in c["lower"]], "o", mfc="none", color="#1b6ca8",
            label="FSwR lower, Thm 3.7")
    ax.plot(al, [float(v) for v in c["fswor"]], "--", color="#2e8b57",
            label="FSwoR a/r, Thm 3.3 (m=4)")
    ax.set_yscale("log")
    ax.set_xlabel(r"$\alpha$")
    ax.set_ylabel("One-step RDP bound")
    ax.set_title(r"$\sigma=6$, $|B|=120$, $|D|=50{,}000$")
    ax.legend(fontsize=7, loc="center right")
    return fig
