"""Full-batch NoisyGD on constrained convex losses (Sec. 4.1, App. C.3): Thm C.7, Thm 4.3,
Table 8, Figure 7.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp import gdp_epsilon
from dpsym.figures import PALETTE, epsilon_panel, figure, new_figure, tradeoff_panel
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.bok2024._rational import _ceil, _exact, _require_eta_le_2_over_M, q_ratio
from dpsym.papers.bok2024.noisygd import thm_4_1
from dpsym.shifts import lemma_c8_symbolic

__all__ = [
    "FIGURE_7",
    "TABLE_8",
    "figure_7",
    "figure_7_mu",
    "table_8",
    "thm_4_3",
    "thm_4_3_dominance_threshold",
    "thm_c_7",
    "thm_c_16_instance",
]


def thm_c_7(s: Number, D: Number, sigma: Number, steps: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm C.7: a contractive (c = 1) CNI on a set of diameter D is mu-GDP with
    mu = (s sqrt(N) + D / sqrt(N)) / sigma for any N = t - tau in 1..t steps; this is
    sqrt(value)/sigma of Lemma C.8 (sympy), evaluated at N = ``steps``.  Rounded up."""
    ref = "Bok et al. 2024, Thm C.7"
    N = require_integer("steps", steps, ref, minimum=1)
    d = lemma_c8_symbolic()
    with precision(dps + GUARD_DPS):
        sv, Dv, sg = to_mpf(s, "s", ref), to_mpf(D, "D", ref), to_mpf(sigma, "sigma", ref)
        require(sv > 0, "s", s, "s > 0", ref)
        require(Dv > 0, "D", D, "D > 0", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        value = sp.lambdify((d.s, d.D, d.N), d.value, "mpmath")(sv, Dv, mpf(N))
        mu = mpmath.sqrt(value) / sg
    return round_up(mu, dps)


def thm_4_3(L: Number, n: Number, sigma: Number, eta: Number, D: Number, t: int,
            M: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.3: NoisyGD on convex, M-smooth losses over a set of diameter D, with
    eta in (0, 2/M] and t >= D n/(eta L), is mu-GDP with
    mu = sqrt(3 L D/(eta n) + (L/n)^2 ceil(D n/(eta L))) / sigma.

    It is Thm C.7 with s = eta L/n, noise eta sigma and N = ceil(D/s) = ceil(D n/(eta L))
    steps, bounded as in the proof (D^2/N <= s D).  The ceiling is taken on exact
    rationals of the inputs.  Rounded up."""
    ref = "Bok et al. 2024, Thm 4.3"
    t = require_integer("t", t, ref, minimum=1)
    q = q_ratio(L, n, eta, D, ref)
    require(t >= q, "t", t, f"t >= D n/(eta L) = {float(q):.6g}", ref)
    _require_eta_le_2_over_M(eta, M, ref)
    ceil_q = _ceil(q)
    with precision(dps + GUARD_DPS):
        Lv, nv, sg = to_mpf(L, "L", ref), to_mpf(n, "n", ref), to_mpf(sigma, "sigma", ref)
        ev, Dv = to_mpf(eta, "eta", ref), to_mpf(D, "D", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        mu = mpmath.sqrt(3 * Lv * Dv / (ev * nv) + (Lv / nv) ** 2 * ceil_q) / sg
    return round_up(mu, dps)


def thm_4_3_dominance_threshold(L: Number, n: Number, eta: Number, D: Number) -> int:
    """Smallest t with Thm 4.3 <= Thm 4.1: (L/n)^2 t >= 3 L D/(eta n) + (L/n)^2 ceil(q), i.e.
    t >= 3 q + ceil(q) with q = D n/(eta L): t* = ceil(3 q) + ceil(q) (exact rationals)."""
    q = q_ratio(L, n, eta, D, "Bok et al. 2024, Thm 4.3")
    return _ceil(3 * q) + _ceil(q)


#: Table 8 (App. D.3.1): (t*, mu*) for D = 1, sigma = 8; rows L/n, columns eta.
TABLE_8 = {
    "D": "1", "sigma": "8", "L_over_n": ("0.25", "0.5", "1"), "eta": ("0.2", "0.1", "0.05"),
    "printed": {
        "0.25": (("80", "0.280"), ("160", "0.395"), ("320", "0.559")),
        "0.5": (("40", "0.395"), ("80", "0.559"), ("160", "0.791")),
        "1": (("20", "0.559"), ("40", "0.791"), ("80", "1.118")),
    },
}


def table_8(dps: int = DEFAULT_DPS) -> list[tuple[str, list[tuple[int, mpf]]]]:
    """Table 8 rows: (L/n, [(t*, mu*) per eta]); t* is where composition reaches mu* and the
    bound min(Thm 4.1, Thm 4.3) stops increasing.  (n = 1 and L = L/n: only L/n enters.)"""
    f = TABLE_8
    rows = []
    for ln in f["L_over_n"]:
        cells = []
        for eta in f["eta"]:
            t_star = thm_4_3_dominance_threshold(ln, 1, eta, f["D"])
            cells.append((t_star, thm_4_3(ln, 1, f["sigma"], eta, f["D"], t_star, dps=dps)))
        rows.append((ln, cells))
    return rows


#: Figure 7 (App. D.3.1): L/n = 0.5, eta = 0.1, D = 1, sigma = 8.
FIGURE_7 = {"L_over_n": "0.5", "eta": "0.1", "D": "1", "sigma": "8", "t_fdp": (80, 160, 320),
            "t_eps": (10, 20, 40, 80, 160, 320, 640), "deltas": ("1e-3", "1e-5")}


def figure_7_mu(t: int, dps: int = 20) -> tuple[mpf, mpf]:
    """(ours, composition) at t for Figure 7: ours = min(Thm 4.1, Thm 4.3) where 4.3 applies."""
    f = FIGURE_7
    comp = thm_4_1(f["L_over_n"], 1, f["sigma"], t, dps=dps)
    q = q_ratio(f["L_over_n"], 1, f["eta"], f["D"], "Figure 7")
    if t < q:
        return comp, comp
    return min(comp, thm_4_3(f["L_over_n"], 1, f["sigma"], f["eta"], f["D"], t, dps=dps)), comp


@figure("bok2024", "figure_7", "NoisyGD constrained convex: Thm 4.3 vs composition (Fig. 7)")
def figure_7() -> Figure:
    """Figure 7: G(mu*) and composition at t in {80, 160, 320} (left); eps vs t (right)."""
    f = FIGURE_7
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=3.6)
    ours_star, _ = figure_7_mu(f["t_fdp"][-1], dps=15)
    curves = [(ours_star, rf"ours, t $\geq$ 80 ($\mu^*$ = {float(ours_star):.4f})", "black", "-")]
    curves += [(figure_7_mu(t, dps=15)[1], f"composition, t={t}", col, "--")
               for t, col in zip(f["t_fdp"], PALETTE, strict=True)]
    tradeoff_panel(ax, curves, "f-DP (Thm 4.3 vs Thm 4.1)")
    pairs = [figure_7_mu(t) for t in f["t_eps"]]
    series = []
    for delta, col in zip(f["deltas"], PALETTE, strict=False):
        series.append(([gdp_epsilon(o, delta, dps=15) for o, _ in pairs],
                       rf"ours, $\delta$={delta}", col, "-"))
        series.append(([gdp_epsilon(c, delta, dps=15) for _, c in pairs],
                       rf"composition, $\delta$={delta}", col, "--"))
    epsilon_panel(ax2, f["t_eps"], series, "steps t",
                  r"$(\varepsilon, \delta)$-DP, L/n = 0.5, $\eta$ = 0.1, D = 1, $\sigma$ = 8")
    return fig




def thm_c_16_instance(L_over_n: Number, eta: Number, D: Number, sigma: Number, t: int,
                      cells: int = 1201) -> dict[str, float]:
    """Thm C.16's lower-bound construction, computed (not sampled): d = 1, K = [-D/2, D/2],
    X_0 = X'_0 = 0, grad f_i = 0 on S while S' shifts the average gradient by -L/n, so
    NoisyGD runs the projected walks X_{k+1} = P(X_k + eta sigma Z) and
    X'_{k+1} = P(X'_k + eta L/n + eta sigma Z).

    Both laws are propagated on a grid of ``cells`` cells, the two end cells holding the
    projection atoms.  Every threshold test "reject iff X_t > x" has type I error
    alpha(x) = P(X_t > x) and type II error beta(x) = P(X'_t <= x); G(mu)(alpha) <= beta fails
    for mu < Phi^-1(1 - alpha) - Phi^-1(beta), so the algorithm is *not* mu-GDP for mu below
    ``mu_lower`` = the best such value over x.  ``mu_upper`` is Thm 4.3 (t >= D n/(eta L)).
    float64 (an illustration of the theorem's tightness; the grid error is shown by
    halving the cell size)."""
    from scipy.special import ndtr, ndtri

    ref = "Bok et al. 2024, Thm C.16"
    t = require_integer("t", t, ref, minimum=1)
    Ln, e, Dv, sg = (float(_exact(x, name, ref)) for x, name in
                     ((L_over_n, "L/n"), (eta, "eta"), (D, "D"), (sigma, "sigma")))
    require(sg > 0, "sigma", sigma, "sigma > 0", ref)
    x = np.linspace(-Dv / 2, Dv / 2, cells)
    h = x[1] - x[0]
    edges = np.concatenate([[-np.inf], (x[:-1] + x[1:]) / 2, [np.inf]])

    def kernel(drift: float) -> np.ndarray:
        z = (edges[None, :] - x[:, None] - drift) / (e * sg)
        return np.diff(ndtr(z), axis=1)          # rows: from cell i; columns: to cell j

    start = np.zeros(cells)
    start[cells // 2] = 1.0
    p, q = start.copy(), start.copy()
    k0, k1 = kernel(0.0), kernel(e * Ln)
    for _ in range(t):
        p, q = p @ k0, q @ k1
    alpha = 1 - np.cumsum(p)                      # P(X_t > x_j)
    beta = np.cumsum(q)                           # P(X'_t <= x_j)
    # Keep tests whose errors are strictly inside (0, 1) in float64, where ndtri is finite.
    ok = (alpha > 1e-300) & (beta > 1e-300) & (alpha < 1 - 1e-15) & (beta < 1 - 1e-15)
    mus = ndtri(1 - alpha[ok]) - ndtri(beta[ok])
    mus[~np.isfinite(mus)] = -np.inf
    j = int(np.argmax(mus))
    # Thm 4.3 from the exact inputs, so its ceiling is not taken on binary floats.
    t_valid = max(t, _ceil(q_ratio(L_over_n, 1, eta, D, ref)))
    upper = float(thm_4_3(L_over_n, 1, sigma, eta, D, t_valid, dps=20))
    return {"mu_lower": float(mus[j]), "mu_upper": upper, "alpha": float(alpha[ok][j]),
            "beta": float(beta[ok][j]), "threshold": float(x[ok][j]), "cell": float(h)}
