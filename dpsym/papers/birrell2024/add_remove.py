"""Birrell, Ebrahimi, Behnia & Pacheco 2024: FSwoR, add/remove adjacency (Sec. 3.2, App. A, B, G).

Each numbered statement is a function of the paper's symbols (``alpha, sigma, q, m, T``);
``sigma`` is the noise multiplier (noise N(0, C^2 sigma^2) added to the *sum* of clipped
gradients), ``q = |B|/|D|``.  Values are mpf at ``dps`` digits; privacy bounds are
rounded up.

>>> from dpsym.papers.birrell2024.add_remove import thm_3_3
>>> from dpsym.numerics import nstr
>>> nstr(thm_3_3(alpha=50, sigma=6, q="0.0024", m=3, dps=30), 6)
'1.79321e-5'
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
import numpy as np
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.errors import require_integer
from dpsym.figures import figure, new_figure
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.rdp.conversions import epsilon_from_rdp
from dpsym.rdp.gaussian_mixture import B_tilde, H, H_minus_1, M, log_H
from dpsym.rdp.subsampled_gaussian import poisson_gaussian_rdp
from dpsym.rdp.taylor import R_tilde, fswor_add_remove_rdp, h_taylor_bound

__all__ = [
    "ALPHAS_FIG6",
    "BATCH",
    "D_SIZE",
    "SIGMA",
    "T_EPOCHS_250",
    "T_TRAINING",
    "Q",
    "app_g_epsilons",
    "eq_8",
    "eq_41_coefficient",
    "eq_44",
    "eq_47",
    "eq_50",
    "exact_remainder",
    "figure_6",
    "figure_6_curves",
    "thm_3_1",
    "thm_3_2",
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
ALPHAS_FIG6 = [1 + 10 ** float(x) for x in np.linspace(-2, 1.8, 100)]


def eq_8(alpha: Number, sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """H_{alpha,sigma}(q) = E_{Z~N(0,1)}[(1 - q + q e^{2Z/sigma - 2/sigma^2})^alpha], eq. (8)."""
    return H(alpha, sigma, q, dps=dps)


def thm_3_1(alpha: Number, sigma: Number, q: Number, T: int = 1,
            dps: int = DEFAULT_DPS) -> mpf:
    """Thm 3.1: one FSwoR step (add/remove) has RDP <= log H_{alpha,sigma}(q)/(alpha-1) (7).

    This is the exact right-hand side (integer alpha: binomial sum; real alpha: quadrature),
    times T for T identical steps (eq. (4)).  Rounded up.
    """
    t = require_integer("T", T, "Birrell et al. 2024, Thm 3.1 (composition (4))", minimum=1)
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
    kk = require_integer("k", k, "Birrell et al. 2024, eq. (41)", minimum=0)
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", "Birrell et al. 2024, eq. (41)")
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


def figure_6_curves(alphas: Sequence[float] = ALPHAS_FIG6, dps: int = 20) -> dict[str, list[mpf]]:
    """One-step Thm 3.3 bounds (m = 3, 4) at sigma = 6, q = 0.0024 on the Figure 6 grid."""
    return {f"m={m}": [thm_3_3(a, SIGMA, Q, m, dps=dps) for a in alphas] for m in (3, 4)}


@figure("birrell2024", "figure_6", "FSwoR add/remove, one step: Thm 3.3 with m = 3, 4 (Fig. 6)")
def figure_6(curves: dict[str, list[mpf]] | None = None) -> Figure:
    """Figure 6: one-step FSwoR-RDP bound (a/r), Thm 3.3 with m = 3 and m = 4, log y."""
    curves = curves or figure_6_curves()
    fig, ax = new_figure(width=5.0, height=3.6)
    for (label, vals), style in zip(curves.items(), ("-", "--"), strict=True):
        ax.plot(ALPHAS_FIG6, [float(v) for v in vals], style, label=f"Thm 3.3, {label}")
    ax.set_yscale("log")
    ax.set_xlabel(r"$\alpha$")
    ax.set_ylabel("One-step FSwoR-RDP bound (a/r)")
    ax.set_title(r"$\sigma=6$, $|B|=120$, $|D|=50{,}000$")
    ax.legend()
    return fig
