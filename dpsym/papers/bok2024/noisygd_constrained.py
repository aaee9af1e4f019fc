"""Full-batch NoisyGD on constrained convex losses (Sec. 4.1, App. C.2.2, App. C.5): Thm C.7,
Lemma C.8, Thm 4.3, Table 8, the data of Figure 7, and the lower bound of Thm C.16.

Symbols: L, n, sigma, eta, t as in :mod:`.noisygd`; D (diameter of the constraint set K),
M (smoothness), s (shift per step, eta L / n), N = t - tau (steps of the interpolation
window), q = D n / (eta L).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.langevin import GridKernel
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.bok2024 import printed
from dpsym.papers.bok2024._rational import (
    _ceil,
    _exact,
    _require_eta_le_2_over_M,
    q_ratio,
    show,
)
from dpsym.papers.bok2024.noisygd import thm_4_1
from dpsym.papers.registry import cite
from dpsym.shifts import lemma_c8_symbolic

__all__ = [
    "FIGURE_7",
    "figure_7_mu",
    "lem_c_8_residuals",
    "table_8",
    "thm_4_3",
    "thm_4_3_dominance_exact",
    "thm_4_3_dominance_threshold",
    "thm_c_7",
    "thm_c_16_exponent",
    "thm_c_16_instance",
    "thm_c_16_phi_inequality",
]

PAPER = "bok2024"


def thm_c_7(s: Number, D: Number, sigma: Number, N: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm C.7: a contractive (c = 1) CNI on a set of diameter D is mu-GDP with
    mu = (s sqrt(N) + D / sqrt(N)) / sigma for any N = t - tau in 1..t steps; this is
    sqrt(value)/sigma of Lemma C.8 (sympy), evaluated at N.  Rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_c_7("0.05", 1, "0.8", 20, dps=30), 10)   # (0.05 sqrt 20 + 1/sqrt 20)/0.8
    '0.5590169944'
    """
    ref = cite(PAPER, "Thm C.7")
    N = require_integer("N", N, ref, minimum=1)
    d = lemma_c8_symbolic()
    with precision(dps + GUARD_DPS):
        sv, Dv, sg = to_mpf(s, "s", ref), to_mpf(D, "D", ref), to_mpf(sigma, "sigma", ref)
        require(sv > 0, "s", s, "s > 0", ref)
        require(Dv > 0, "D", D, "D > 0", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        value = sp.lambdify((d.s, d.D, d.N), d.value, "mpmath")(sv, Dv, mpf(N))
        mu = mpmath.sqrt(value) / sg
    return round_up(mu, dps)


def lem_c_8_residuals() -> dict[str, sp.Expr]:
    """Lemma C.8 derived by sympy (:func:`dpsym.shifts.lemma_c8_symbolic`: c = 1 telescopes to
    sum a_k = D + N s, Cauchy-Schwarz, d/dN = 0) minus the printed forms
    (:data:`printed.LEM_C_8`), simplified; plus ``"min - 4 s D"``, the value at the argmin.

    >>> set(lem_c_8_residuals().values())
    {0}
    """
    d = lemma_c8_symbolic()
    i = sp.Symbol("i", integer=True, nonnegative=True)
    sym = {"s": d.s, "D": d.D, "N": d.N, "i": i}
    derived = {"value": d.value, "argmin": d.argmin, "a_k": d.a, "z_k": d.z, "lambda_k": d.lam}
    out = {k: sp.simplify(derived[k] - printed.formula(printed.LEM_C_8[k], **sym))
           for k in derived}
    out["min - 4 s D"] = sp.simplify(d.min_value - 4 * d.s * d.D)
    return out


def thm_4_3(L: Number, n: Number, sigma: Number, eta: Number, D: Number, t: int,
            M: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.3: NoisyGD on convex, M-smooth losses over a set of diameter D, with
    eta in (0, 2/M] and t >= D n/(eta L), is mu-GDP with
    mu = sqrt(3 L D/(eta n) + (L/n)^2 ceil(D n/(eta L))) / sigma.

    It is Thm C.7 with s = eta L/n, noise eta sigma and N = ceil(D/s) = ceil(D n/(eta L))
    steps, bounded as in the proof (D^2/N <= s D).  The ceiling is taken on exact
    rationals of the inputs.  Rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_4_3("0.5", 1, 8, "0.1", 1, 80, dps=30), 10)   # Table 8
    '0.5590169944'
    """
    ref = cite(PAPER, "Thm 4.3")
    t = require_integer("t", t, ref, minimum=1)
    q = q_ratio(L, n, eta, D, ref)
    require(t >= q, "t", t, f"t >= D n/(eta L) = {show(q)}", ref)
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
    t >= 3 q + ceil(q) with q = D n/(eta L): t* = ceil(3 q) + ceil(q) (exact rationals).

    >>> thm_4_3_dominance_threshold(1, 1, 1, "1.1")   # 3.3 + 2 -> 6, not 4 q = 4.4
    6
    """
    q = q_ratio(L, n, eta, D, cite(PAPER, "Thm 4.3"))
    return _ceil(3 * q) + _ceil(q)


def thm_4_3_dominance_exact(qs: tuple[str, ...] = ("0.5", "1.1", "2.7", "3", "10.01"),
                            dps: int = DEFAULT_DPS) -> list[dict[str, object]]:
    """For each q = D n/(eta L) in ``qs`` (L = n = eta = 1, D = q), the dominance threshold
    t* and whether Thm 4.3 <= Thm 4.1 at t* and > Thm 4.1 at t* - 1 (when t* - 1 >= q, where
    Thm 4.3 applies): the threshold is exact. Also 4q, the threshold the text states.

    >>> (r,) = thm_4_3_dominance_exact(("1.1",), dps=20)
    >>> r["q"], r["t*"], r["holds at t*"], r["fails below"]
    ('1.1', 6, True, True)
    """
    rows = []
    for q in qs:
        t_star = thm_4_3_dominance_threshold(1, 1, 1, q)
        at = thm_4_3(1, 1, 1, 1, q, t_star, dps=dps) <= thm_4_1(1, 1, 1, t_star, dps=dps)
        below = t_star - 1
        fails = (below < Fraction(q)
                 or thm_4_3(1, 1, 1, 1, q, below, dps=dps) > thm_4_1(1, 1, 1, below, dps=dps))
        rows.append({"q": q, "t*": t_star, "4q": 4 * Fraction(q), "holds at t*": at,
                     "fails below": fails})
    return rows


#: Table 8's setting (App. D.3.1): D = 1, sigma = 8 (n = 1 and L = L/n: only L/n enters).
TABLE_8_D, TABLE_8_SIGMA = "1", "8"


def table_8(dps: int = DEFAULT_DPS) -> list[tuple[str, list[tuple[int, mpf]]]]:
    """Table 8 rows: (L/n, [(t*, mu*) per printed eta]); t* is where composition reaches mu*
    and the bound min(Thm 4.1, Thm 4.3) stops increasing.

    >>> [(t, float(m)) for t, m in table_8(dps=20)[0][1]][:1]
    [(80, 0.2795084971874737)]
    """
    rows = []
    for ln in printed.TABLE_8_L_OVER_N:
        cells = []
        for eta in printed.TABLE_8_ETA:
            t_star = thm_4_3_dominance_threshold(ln, 1, eta, TABLE_8_D)
            cells.append((t_star, thm_4_3(ln, 1, TABLE_8_SIGMA, eta, TABLE_8_D, t_star, dps=dps)))
        rows.append((ln, cells))
    return rows


#: Figure 7 (App. D.3.1): L/n = 0.5, eta = 0.1, D = 1, sigma = 8.
FIGURE_7 = {"L_over_n": "0.5", "eta": "0.1", "D": "1", "sigma": "8", "t_fdp": (80, 160, 320),
            "t_eps": (10, 20, 40, 80, 160, 320, 640), "deltas": ("1e-3", "1e-5")}


def figure_7_mu(t: int, dps: int = 20) -> tuple[mpf, mpf]:
    """(ours, composition) at t for Figure 7: ours = min(Thm 4.1, Thm 4.3) where 4.3 applies.

    >>> [float(x) for x in figure_7_mu(640)]
    [0.5590169943749475, 1.5811388300841898]
    """
    f = FIGURE_7
    comp = thm_4_1(f["L_over_n"], 1, f["sigma"], t, dps=dps)
    q = q_ratio(f["L_over_n"], 1, f["eta"], f["D"], "Figure 7")
    if t < q:
        return comp, comp
    return min(comp, thm_4_3(f["L_over_n"], 1, f["sigma"], f["eta"], f["D"], t, dps=dps)), comp


def thm_c_16_instance(L_over_n: Number, eta: Number, D: Number, sigma: Number, t: int,
                      cells: int = 1201) -> dict[str, float]:
    """Thm C.16's lower-bound construction, computed (not sampled): d = 1, K = [-D/2, D/2],
    X_0 = X'_0 = 0, grad f_i = 0 on S while S' shifts the average gradient by -L/n, so
    NoisyGD runs the projected walks X_{k+1} = P(X_k + eta sigma Z) and
    X'_{k+1} = P(X'_k + eta L/n + eta sigma Z).

    Both laws are propagated exactly on a grid of ``cells`` cells plus the two projection
    atoms (:class:`dpsym.langevin.GridKernel`, the projected Gaussian kernel).  Every
    threshold test "reject iff X_t > x" has type I error alpha(x) = P(X_t > x) and type II
    error beta(x) = P(X'_t <= x); G(mu)(alpha) <= beta fails for
    mu < Phi^-1(1 - alpha) - Phi^-1(beta), so the algorithm is *not* mu-GDP for mu below
    ``mu_lower`` = the best such value over x.  ``mu_upper`` is Thm 4.3 (at
    max(t, ceil(D n/(eta L)))).  float64: an illustration of the theorem's tightness; the
    grid error is shown by halving the cell size.

    >>> r = thm_c_16_instance("1", "0.1", "1", "0.5", 100)
    >>> round(r["mu_lower"] / r["mu_upper"], 2)
    0.85
    """
    t = require_integer("t", t, cite(PAPER, "Thm C.16"), minimum=1, maximum=10**5)
    cells = require_integer("cells", cells, cite(PAPER, "Thm C.16"), minimum=3, maximum=10**5)
    from scipy.special import ndtri

    ref = cite(PAPER, "Thm C.16")
    t = require_integer("t", t, ref, minimum=1)
    cells = require_integer("cells", cells, ref, minimum=3)
    require(cells % 2 == 1, "cells", cells, "an odd number (X_0 = 0 is a cell midpoint)", ref)
    Ln, e, Dv, sg = (float(_exact(x, name, ref)) for x, name in
                     ((L_over_n, "L/n"), (eta, "eta"), (D, "D"), (sigma, "sigma")))
    require(sg > 0, "sigma", sigma, "sigma > 0", ref)
    # GridKernel is projected Langevin, X' = P(X - h g(X) + sqrt(2 h) Z): the noise eta sigma Z
    # is sqrt(2 h) Z for h = (eta sigma)^2 / 2, and a drift d is the constant gradient -d/h.
    h = (e * sg) ** 2 / 2
    laws = []
    for drift in (0.0, e * Ln):
        k = GridKernel.build(h, lambda x, d=drift: np.full_like(x, -d / h), cells,
                             a=-Dv / 2, b=Dv / 2)
        laws.append(k.laws(1 + cells // 2, [t])[t])
    p, q = laws
    points = np.concatenate(([-Dv / 2], (k.edges[:-1] + k.edges[1:]) / 2, [Dv / 2]))
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
            "beta": float(beta[ok][j]), "threshold": float(points[ok][j]),
            "cell": float(Dv / cells)}


def thm_c_16_exponent() -> dict[str, Fraction]:
    """The constant of the proof of Thm C.16 (a), exactly: Phi(x) >= 1 - exp(-x^2/2) with
    x = 0.3 mu_0 / sqrt(2.8) gives exp(-(x^2/2)) = exp(-e mu_0^2), e = 0.3^2/(2 * 2.8).

    Returns ``exact`` (e = 0.09/5.6 = 9/560), ``printed`` (0.9/5.6, :data:`printed.
    THM_C_16_EXPONENT`), ``other`` (0.01/5.6, the Doob term) and ``c1_squared`` (the bound
    0.01/5.6 on c_1^2 of :data:`printed.THM_C_16_CONDITION`). The conclusion needs both
    exponents to exceed c_1^2: with the exact e it does, under the printed condition.

    >>> r = thm_c_16_exponent()
    >>> r["exact"], r["printed"], r["exact"] > r["c1_squared"]
    (Fraction(9, 560), Fraction(9, 56), True)
    """
    def frac(x: sp.Expr) -> Fraction:
        x = sp.Rational(x)
        return Fraction(int(x.p), int(x.q))

    x_over_mu0 = Fraction(3, 10) ** 2 / Fraction(28, 10)         # x^2 / mu_0^2
    return {"exact": x_over_mu0 / 2, "printed": frac(printed.formula(printed.THM_C_16_EXPONENT)),
            "other": Fraction("0.01") / Fraction("5.6"),
            "c1_squared": frac(printed.formula(printed.THM_C_16_CONDITION) ** 2)}


def thm_c_16_phi_inequality(points: int = 401, upper: Number = 8,
                            dps: int = DEFAULT_DPS) -> dict[str, mpf]:
    """The inequality Phi(x) >= 1 - exp(-x^2/2) for x >= x0 = 1/sqrt(2 pi) used in the proof
    of Thm C.16: its minimum gap on ``points`` equispaced points of [x0, upper], and the
    gap's derivative e^(-x^2/2)(1/sqrt(2 pi) - x) at x0 (it is <= 0 from x0 on and the gap
    tends to 0, so the gap is >= 0: the grid only illustrates the proof).

    >>> r = thm_c_16_phi_inequality(points=41, dps=20)
    >>> r["min_gap"] >= 0, abs(r["slope_at_x0"]) < 1e-15
    (True, True)
    """
    points = require_integer("points", points, cite(PAPER, "Thm C.16"), minimum=2, maximum=10**5)
    with precision(dps + GUARD_DPS):
        x0 = 1 / mpmath.sqrt(2 * mpmath.pi)
        hi = to_mpf(upper, "upper")
        grid = [x0 + (hi - x0) * mpf(i) / (points - 1) for i in range(points)]
        gap = min(mpmath.ncdf(x) - (1 - mpmath.exp(-x**2 / 2)) for x in grid)
        slope = mpmath.npdf(x0) - x0 * mpmath.exp(-x0**2 / 2)
    return {"min_gap": gap, "slope_at_x0": slope, "x0": x0}
