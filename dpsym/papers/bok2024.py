"""Bok, Su & Altschuler 2024, "Shifted interpolation for differential privacy".

Covered so far: the conversions of Appendix A (Lemmas A.3, A.4), Figure 2, and full-batch
NoisyGD on strongly convex losses (Lemma 2.8, Lemma C.6, Thms C.5, 4.1, 4.2, Table 7,
Figure 6) and on constrained convex losses (Lemma C.8, Thms C.7, 4.3, Table 8, Figure 7);
cyclic-batch NoisyCGD on strongly convex losses (Lemma C.10, Thms 4.4, 4.5, Table 9,
Figure 8); the Langevin / exponential-mechanism results of Section 5 (Prop. 5.1, Cors 5.2,
5.4, Remark 5.3, App. D.4).  b is the batch size, l the number of batches, E the number of
epochs.
Symbols follow the paper: L (gradient sensitivity), n (dataset size), sigma (noise
multiplier), eta (step size), m, M (strong convexity, smoothness), t (steps), c
(contraction factor), s (per-step sensitivity of the update map), mu (GDP parameter).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

import mpmath
import numpy as np
import sympy as sp
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp import Gaussian, PiecewiseLinear, gdp_delta, gdp_epsilon, gdp_to_rdp
from dpsym.figures import PALETTE, epsilon_panel, figure, new_figure, tradeoff_panel
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.shifts import lemma_c6_symbolic, lemma_c8_symbolic

__all__ = [
    "FIGURE_2_MUS",
    "FIGURE_2_PIVOT",
    "FIGURE_6",
    "FIGURE_7",
    "FIGURE_8",
    "TABLES_10_12",
    "TABLE_7",
    "TABLE_8",
    "TABLE_9",
    "app_d4_threshold",
    "cor_5_2",
    "cor_5_4",
    "e_star_as_printed",
    "figure_2",
    "figure_2_curve",
    "figure_2_gap",
    "figure_6",
    "figure_6_eps",
    "figure_7",
    "figure_7_mu",
    "figure_8",
    "lem_2_8",
    "lem_a_3",
    "lem_a_3_epsilon",
    "lem_a_4",
    "prop_5_1",
    "pure_dp_dominates_gdp",
    "q_ratio",
    "rem_5_3_montecarlo",
    "table_7",
    "table_8",
    "table_9",
    "tables_10_12_cell",
    "thm_4_1",
    "thm_4_2",
    "thm_4_2_montecarlo",
    "thm_4_3",
    "thm_4_3_dominance_threshold",
    "thm_4_4",
    "thm_4_5",
    "thm_4_5_from_c",
    "thm_4_6",
    "thm_4_6_crossing",
    "thm_c_5",
    "thm_c_7",
]


def lem_a_3(mu: Number, eps: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.3: mu-GDP is (eps, delta)-DP with
    delta = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""
    return gdp_delta(mu, eps, dps=dps)


def lem_a_3_epsilon(mu: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.3 inverted: the eps at which mu-GDP gives the target delta."""
    return gdp_epsilon(mu, delta, dps=dps)


def lem_a_4(mu: Number, alpha: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.4: mu-GDP is (alpha, alpha mu^2 / 2)-RDP for every alpha > 1."""
    return gdp_to_rdp(mu, alpha, dps=dps)


#: The Gaussian curves drawn in Figure 2: G(0) = Id, G(0.5), G(1), G(5).
FIGURE_2_MUS = ("0", "0.5", "1", "5")
#: Figure 2's illustrative T(A(S), A(S')) is piecewise linear with its kink at (0.37, 0.37);
#: the paper gives no number, 0.37 is the pivot in the authors' plotting code.
FIGURE_2_PIVOT = "0.37"


def figure_2_curve() -> PiecewiseLinear:
    """The tradeoff curve of the mechanism A in Figure 2: (0, 1) -> (p, p) -> (1, 0)."""
    return PiecewiseLinear([(0, 1), (FIGURE_2_PIVOT, FIGURE_2_PIVOT), (1, 0)])


def figure_2_gap(mu: Number, dps: int = DEFAULT_DPS) -> mpf:
    """min over x of f(x) - G(mu)(x) for the Figure 2 curve f, exactly.

    On each linear piece f - G(mu) is linear minus convex, hence concave, so its minimum
    over the piece is at an end: the minimum over [0, 1] is the minimum over the three
    breakpoints.  A negative gap means A is *not* mu-GDP (Bok et al. 2024, Def. 2.4).
    """
    with precision(dps):
        f, g = figure_2_curve(), Gaussian(mu)
        return min(f(x) - g(x) for x in (0, FIGURE_2_PIVOT, 1))


@figure("bok2024", "figure_2", "Tradeoff functions: G(mu) and an f-DP curve (Fig. 2)")
def figure_2() -> Figure:
    """Figure 2: G(0) = Id, G(0.5), G(1), G(5) and the curve of A, 1-GDP but not 0.5-GDP."""
    fig, ax = new_figure(width=4.4, height=4.0)
    xs = np.linspace(0, 1, 401)
    labels = {"0": "G(0) = Id (full privacy)", "5": "G(5) (essentially no privacy)"}
    for mu in FIGURE_2_MUS:
        ax.plot(xs, Gaussian(mu).vectorized(xs), label=labels.get(mu, f"G({mu})"))
    f = figure_2_curve()
    ax.plot(xs, f.vectorized(xs), color="black", linestyle="--",
            label=r"$T(\mathcal{A}(S), \mathcal{A}(S'))$")
    ax.set_xlabel("Type I error")
    ax.set_ylabel("Type II error")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_title("f-DP and GDP (Bok et al. 2024, Fig. 2)")
    ax.legend(loc="upper right")
    return fig


# --- NoisyGD, strongly convex (Sec. 4.1, App. C.2) ---------------------------------------


def lem_2_8(eta: Number, m: Number, M: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma 2.8: x -> x - eta grad f(x) is c-Lipschitz, c = max(|1 - eta m|, |1 - eta M|) < 1,
    for f m-strongly convex and M-smooth and 0 < eta < 2/M."""
    ref = "Bok et al. 2024, Lemma 2.8"
    with precision(dps + GUARD_DPS):
        e, mv, Mv = to_mpf(eta, "eta", ref), to_mpf(m, "m", ref), to_mpf(M, "M", ref)
        require(mv > 0, "m", m, "m > 0 (strong convexity)", ref)
        require(Mv >= mv, "M", M, f"M >= m = {m}", ref)
        require(0 < e < 2 / Mv, "eta", eta, f"0 < eta < 2/M = {mpmath.nstr(2 / Mv, 6)}", ref)
        c = max(abs(1 - e * mv), abs(1 - e * Mv))
    return round_up(c, dps)


def thm_c_5(c: Number, s: Number, sigma: Number, t: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm C.5: a strongly contractive CNI (c < 1, shifts s, noise sigma) is mu-GDP after t steps,
    mu = sqrt(V) / sigma with V the optimal value of the shift problem (Lemma C.6),
    derived by sympy: V = (1 - c^t)/(1 + c^t) (1 + c)/(1 - c) s^2.  Rounded up."""
    ref = "Bok et al. 2024, Thm C.5"
    t = require_integer("t", t, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        cv, sv, sg = to_mpf(c, "c", ref), to_mpf(s, "s", ref), to_mpf(sigma, "sigma", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        require(sv >= 0, "s", s, "s >= 0", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        value = _c6_value()(cv, sv, t)
        mu = mpmath.sqrt(value) / sg
    return round_up(mu, dps)


@cache
def _c6_value() -> Callable[[mpf, mpf, int], mpf]:
    d = lemma_c6_symbolic()
    return sp.lambdify((d.c, d.s, d.t), d.value, "mpmath")


def thm_4_1(L: Number, n: Number, sigma: Number, t: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.1 (GDP composition, DRS22): NoisyGD is (L/(n sigma)) sqrt(t)-GDP."""
    ref = "Bok et al. 2024, Thm 4.1"
    t = require_integer("t", t, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        Lv, nv, sg = to_mpf(L, "L", ref), to_mpf(n, "n", ref), to_mpf(sigma, "sigma", ref)
        require(Lv >= 0, "L", L, "L >= 0", ref)
        require(nv > 0, "n", n, "n > 0", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        mu = Lv / (nv * sg) * mpmath.sqrt(t)
    return round_up(mu, dps)


def thm_4_2(L: Number, n: Number, sigma: Number, eta: Number, m: Number, M: Number, t: int,
            dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.2: NoisyGD on m-strongly convex, M-smooth losses is exactly mu-GDP with
    mu = sqrt((1 - c^t)/(1 + c^t) (1 + c)/(1 - c)) L/(n sigma), c from Lemma 2.8.

    It is Thm C.5 with s = eta L/n and noise eta sigma (the eta cancels)."""
    ref = "Bok et al. 2024, Thm 4.2"
    c = lem_2_8(eta, m, M, dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        e, Lv, nv = to_mpf(eta, "eta", ref), to_mpf(L, "L", ref), to_mpf(n, "n", ref)
        sg = to_mpf(sigma, "sigma", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        require(nv > 0, "n", n, "n > 0", ref)
    return thm_c_5(c, e * Lv / nv, e * sg, t, dps=dps)


#: Table 7 (App. D.3.1): mu for NoisyGD with L/(n sigma) = 0.1, Thm 4.1 and Thm 4.2 by c.
TABLE_7 = {
    "L_over_n_sigma": "0.1",
    "steps": (10, 100, 1000),
    "c": ("0.92", "0.96", "0.98", "0.99", "0.995"),
    "printed": {
        10: ("0.316", "0.308", "0.314", "0.316", "0.316", "0.316"),
        100: ("1.000", "0.490", "0.688", "0.871", "0.961", "0.990"),
        1000: ("3.162", "0.490", "0.700", "0.995", "1.411", "1.984"),
    },
}


def table_7(dps: int = DEFAULT_DPS) -> list[tuple[int, list[mpf]]]:
    """Table 7 rows: (t, [Thm 4.1 mu, Thm 4.2 mu for each c]) at L/(n sigma) = 0.1.

    With s/sigma = L/(n sigma), Thm 4.2 depends only on c, so Thm C.5 is evaluated with
    s = 0.1, sigma = 1."""
    eff = TABLE_7["L_over_n_sigma"]
    rows = []
    for t in TABLE_7["steps"]:
        vals = [thm_4_1(eff, 1, 1, t, dps=dps)]
        vals += [thm_c_5(c, eff, 1, t, dps=dps) for c in TABLE_7["c"]]
        rows.append((t, vals))
    return rows


def thm_4_2_montecarlo(c: float = 0.9, s: float = 0.1, sigma: float = 1.0, t: int = 50,
                       n: int = 100_000, seed: int = 20240601,
                       alphas: tuple[float, ...] = (0.01, 0.05, 0.1, 0.2, 0.3, 0.5)) -> dict:
    """Tightness of Thm C.5 / 4.2 by simulation on its tight instance (App. C.2).

    phi(x) = c x, phi'(x) = c x + s, X_0 = X'_0 = 0, Gaussian noise sigma, in 1-D.  Both
    chains are run for t steps (n samples each, seeded).  The likelihood ratio is monotone
    in x, so the optimal tests are thresholds: at type-I error alpha the threshold is the
    empirical (1 - alpha)-quantile of X_t and the type-II error is the fraction of X'_t
    below it.  Returned: per alpha the empirical beta, G(mu)(alpha), and a standard error
    combining the binomial error of beta and the quantile error propagated through G'.
    """
    rng = np.random.default_rng(seed)
    x = np.zeros(n)
    xp = np.zeros(n)
    for _ in range(t):
        x = c * x + rng.normal(0.0, sigma, n)
        xp = c * xp + s + rng.normal(0.0, sigma, n)
    mu = thm_c_5(repr(c), repr(s), repr(sigma), t, dps=20)
    g = Gaussian(mu)
    rows = []
    with precision(20):
        for a in alphas:
            thr = np.quantile(x, 1 - a)
            beta_hat = float(np.mean(xp <= thr))
            beta = float(g(repr(a)))
            slope = abs(float(g.derivative(repr(a))))
            se = np.sqrt(beta * (1 - beta) / n + slope**2 * a * (1 - a) / n)
            rows.append({"alpha": a, "beta_mc": beta_hat, "beta_exact": beta, "se": float(se)})
    return {"mu": mu, "rows": rows, "n": n, "t": t, "c": c, "s": s, "sigma": sigma}


#: Figure 6 (App. D.3.1): c = 0.99, L/(n sigma) = 0.1.
FIGURE_6 = {"c": "0.99", "L_over_n_sigma": "0.1", "t_fdp": (10, 100, 1000),
            "t_eps": (10, 20, 40, 80, 160, 320, 640), "deltas": ("1e-3", "1e-5")}


def figure_6_eps(dps: int = 20) -> dict[str, dict[str, list[mpf]]]:
    """The right panel's values: eps(delta) of Thm 4.2 ("ours") and Thm 4.1 ("composition")."""
    f = FIGURE_6
    out: dict[str, dict[str, list[mpf]]] = {}
    for delta in f["deltas"]:
        ours = [gdp_epsilon(thm_c_5(f["c"], f["L_over_n_sigma"], 1, t, dps=dps), delta, dps=dps)
                for t in f["t_eps"]]
        comp = [gdp_epsilon(thm_4_1(f["L_over_n_sigma"], 1, 1, t, dps=dps), delta, dps=dps)
                for t in f["t_eps"]]
        out[delta] = {"ours": ours, "composition": comp}
    return out


@figure("bok2024", "figure_6", "NoisyGD strongly convex: Thm 4.2 vs composition (Fig. 6)")
def figure_6(eps: dict[str, dict[str, list[mpf]]] | None = None) -> Figure:
    """Figure 6: f-DP curves at t in {10, 100, 1000} (left) and eps vs t (right), c = 0.99."""
    f = FIGURE_6
    eps = eps or figure_6_eps()
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=3.6)
    curves = []
    for t, col in zip(f["t_fdp"], PALETTE, strict=True):
        ours = thm_c_5(f["c"], f["L_over_n_sigma"], 1, t, dps=15)
        comp = thm_4_1(f["L_over_n_sigma"], 1, 1, t, dps=15)
        curves += [(ours, f"ours, t={t}", col, "-"), (comp, f"composition, t={t}", col, "--")]
    tradeoff_panel(ax, curves, "f-DP (Thm 4.2 vs Thm 4.1)")
    series = []
    for delta, col in zip(f["deltas"], PALETTE, strict=False):
        series.append((eps[delta]["ours"], rf"ours, $\delta$={delta}", col, "-"))
        series.append((eps[delta]["composition"], rf"composition, $\delta$={delta}", col, "--"))
    epsilon_panel(ax2, f["t_eps"], series, "steps t",
                  r"$(\varepsilon, \delta)$-DP, c = 0.99, L/(n$\sigma$) = 0.1")
    return fig


# --- NoisyGD, constrained convex (Sec. 4.1, App. C.3) ------------------------------------


def _exact(x: Number, name: str, ref: str) -> Fraction:
    """An input as an exact rational: decimal strings exactly, floats as their binary value."""
    if isinstance(x, bool):
        raise ValueError(f"{name}={x} violates a real number ({ref})")
    try:
        if isinstance(x, mpf):
            return Fraction(mpmath.nstr(x, 60, min_fixed=-10**6, max_fixed=10**6))
        return Fraction(x)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={x} violates a real number ({ref})") from None


def _ceil(x: Fraction) -> int:
    """Exact ceiling of a rational (the theorems' ceilings must not see float noise)."""
    return -(-x.numerator // x.denominator)


def _require_eta_le_2_over_M(eta: Number, M: Number | None, ref: str) -> None:
    """The step-size hypothesis eta <= 2/M of Thms 4.3 and 4.6, checked exactly when M is given."""
    if M is not None:
        Mq = _exact(M, "M", ref)
        require(Mq > 0 and _exact(eta, "eta", ref) <= 2 / Mq, "eta", eta,
                f"eta <= 2/M = {float(2 / Mq):.6g}", ref)


def q_ratio(L: Number, n: Number, eta: Number, D: Number, ref: str) -> Fraction:
    """q = D n / (eta L), exactly (its ceiling enters Thm 4.3)."""
    Lq, nq, eq, Dq = (_exact(v, k, ref) for v, k in ((L, "L"), (n, "n"), (eta, "eta"), (D, "D")))
    require(Lq > 0, "L", L, "L > 0", ref)
    require(nq > 0, "n", n, "n > 0", ref)
    require(eq > 0, "eta", eta, "eta > 0", ref)
    require(Dq > 0, "D", D, "D > 0 (diameter)", ref)
    return Dq * nq / (eq * Lq)


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


# --- NoisyCGD (cyclic batches), strongly convex (Sec. 4.2, App. C.4) ---------------------


def thm_4_4(L: Number, b: Number, sigma: Number, E: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.4 (GDP composition): NoisyCGD with batch size b is (L/(b sigma)) sqrt(E)-GDP
    after E epochs (each example is used once per epoch)."""
    return thm_4_1(L, b, sigma, E, dps=dps)


@cache
def _c10_value() -> Callable[[mpf, mpf, int, int], mpf]:
    from dpsym.shifts import lemma_c10_symbolic

    d = lemma_c10_symbolic()
    return sp.lambdify((d.c, d.s, d.l, d.E), d.value, "mpmath")


def thm_4_5_from_c(c: Number, L_over_b_sigma: Number, l: int, E: int,
                   dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.5 at a given contraction c: mu = (L/(b sigma)) sqrt(1 + V/s^2), with V = sum a_k^2
    of Lemma C.10's shifts summed by sympy, i.e.
    V/s^2 = c^(2l-2) (1 - c^2)/(1 - c^l)^2 (1 - c^(l(E-1)))/(1 + c^(l(E-1))).
    The 1 is the last differing step, charged by Lemma 3.1.  Rounded up."""
    ref = "Bok et al. 2024, Thm 4.5"
    l = require_integer("l", l, ref, minimum=1)
    E = require_integer("E", E, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        cv = to_mpf(c, "c", ref)
        eff = to_mpf(L_over_b_sigma, "L/(b sigma)", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        require(eff >= 0, "L/(b sigma)", L_over_b_sigma, "L/(b sigma) >= 0", ref)
        ratio = _c10_value()(cv, mpf(1), l, E) if E > 1 else mpf(0)
        mu = eff * mpmath.sqrt(1 + ratio)
    return round_up(mu, dps)


def thm_4_5(L: Number, b: Number, sigma: Number, eta: Number, m: Number, M: Number, l: int,
            E: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.5: NoisyCGD (l batches of size b, E epochs) on m-strongly convex, M-smooth losses
    with eta in (0, 2/M) is mu-GDP, mu from :func:`thm_4_5_from_c` with c of Lemma 2.8."""
    ref = "Bok et al. 2024, Thm 4.5"
    c = lem_2_8(eta, m, M, dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        Lv, bv, sg = to_mpf(L, "L", ref), to_mpf(b, "b", ref), to_mpf(sigma, "sigma", ref)
        require(bv > 0, "b", b, "b > 0", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        eff = Lv / (bv * sg)
    return thm_4_5_from_c(c, eff, l, E, dps=dps)


#: Table 9 (App. D.3.2): mu for NoisyCGD, L/(b sigma) = 0.2; columns (l, c).
TABLE_9 = {
    "L_over_b_sigma": "0.2", "epochs": (5, 50, 500),
    "columns": tuple((l, c) for l in (10, 20, 40) for c in ("0.98", "0.99", "0.995")),
    "printed": {
        5: ("0.447", "0.229", "0.233", "0.235", "0.211", "0.215", "0.217", "0.202", "0.205",
            "0.208"),
        50: ("1.414", "0.270", "0.334", "0.410", "0.216", "0.237", "0.275", "0.203", "0.208",
             "0.219"),
        500: ("4.472", "0.270", "0.336", "0.439", "0.216", "0.237", "0.276", "0.203", "0.208",
              "0.219"),
    },
}


def table_9(dps: int = DEFAULT_DPS) -> list[tuple[int, list[mpf]]]:
    """Table 9 rows: (E, [Thm 4.4 mu, Thm 4.5 mu for each (l, c)])."""
    f = TABLE_9
    return [(E, [thm_4_4(f["L_over_b_sigma"], 1, 1, E, dps=dps)]
             + [thm_4_5_from_c(c, f["L_over_b_sigma"], l, E, dps=dps) for l, c in f["columns"]])
            for E in f["epochs"]]


#: Figure 8 (App. D.3.2): c = 0.99, l = 20, L/(b sigma) = 0.2.
FIGURE_8 = {"c": "0.99", "l": 20, "L_over_b_sigma": "0.2", "E_fdp": (5, 50, 500),
            "E_eps": (5, 10, 20, 40, 80, 160, 320), "deltas": ("1e-3", "1e-5")}


@figure("bok2024", "figure_8", "NoisyCGD strongly convex: Thm 4.5 vs composition (Fig. 8)")
def figure_8() -> Figure:
    """Figure 8: f-DP at E in {5, 50, 500} (left) and eps vs E (right), c = 0.99, l = 20."""
    f = FIGURE_8
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=3.6)

    def ours(E: int) -> mpf:
        return thm_4_5_from_c(f["c"], f["L_over_b_sigma"], f["l"], E, dps=15)

    def comp(E: int) -> mpf:
        return thm_4_4(f["L_over_b_sigma"], 1, 1, E, dps=15)

    curves = []
    for E, col in zip(f["E_fdp"], PALETTE, strict=True):
        curves.append((ours(E), f"ours, E={E}", col, "-"))
        curves.append((comp(E), f"composition, E={E}", col, "--"))
    tradeoff_panel(ax, curves, "f-DP (Thm 4.5 vs Thm 4.4)")
    series = []
    for delta, col in zip(f["deltas"], PALETTE, strict=False):
        series.append(([gdp_epsilon(ours(E), delta, dps=15) for E in f["E_eps"]],
                       rf"ours, $\delta$={delta}", col, "-"))
        series.append(([gdp_epsilon(comp(E), delta, dps=15) for E in f["E_eps"]],
                       rf"composition, $\delta$={delta}", col, "--"))
    epsilon_panel(ax2, f["E_eps"], series, "epochs E",
                  r"$(\varepsilon, \delta)$-DP, c = 0.99, l = 20, L/(b$\sigma$) = 0.2")
    return fig


# --- Langevin / exponential mechanism (Sec. 5, App. D.4) -----------------------------------


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


# --- NoisyCGD, constrained convex (Sec. 4.2, App. C.4) -------------------------------------


def thm_4_6(L: Number, b: Number, sigma: Number, eta: Number, D: Number, l: int, E: int,
            M: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.6: NoisyCGD (l batches of size b, E epochs) on convex, M-smooth losses over a set of
    diameter D, with eta in (0, 2/M] and E >= D b/(eta L), is mu-GDP with
    mu = sqrt((L/b)^2 + 3 L D/(eta b l) + L^2/(b^2 l) ceil(D b/(eta L))) / sigma.
    The ceiling is taken on exact rationals.  Rounded up."""
    ref = "Bok et al. 2024, Thm 4.6"
    l = require_integer("l", l, ref, minimum=1)
    E = require_integer("E", E, ref, minimum=1)
    q = q_ratio(L, b, eta, D, ref)
    require(q <= E, "E", E, f"E >= D b/(eta L) = {float(q):.6g}", ref)
    _require_eta_le_2_over_M(eta, M, ref)
    ceil_q = _ceil(q)
    with precision(dps + GUARD_DPS):
        Lv, bv, sg = to_mpf(L, "L", ref), to_mpf(b, "b", ref), to_mpf(sigma, "sigma", ref)
        ev, Dv = to_mpf(eta, "eta", ref), to_mpf(D, "D", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        Lb = Lv / bv
        mu = mpmath.sqrt(Lb**2 + 3 * Lv * Dv / (ev * bv * l) + Lb**2 / l * ceil_q) / sg
    return round_up(mu, dps)


def thm_4_6_crossing(L_over_b: Number, eta: Number, D: Number, l: int) -> int:
    """First E with composition (Thm 4.4) >= Thm 4.6's mu*: (L/b)^2 E >= (L/b)^2 + 3 L D/(eta b l)
    + (L/b)^2 ceil(q)/l, i.e. E* = ceil(1 + 3 q/l + ceil(q)/l), q = D b/(eta L) (exact)."""
    q = q_ratio(L_over_b, 1, eta, D, "Bok et al. 2024, Tables 10-12")
    ceil_q = _ceil(q)
    x = 1 + 3 * q / l + Fraction(ceil_q, l)
    return _ceil(x)


def e_star_as_printed(L_over_b: Number, eta: Number, l: int) -> int:
    """The expression that reproduces every printed E* of Tables 10-12 (D = 1):
    ceil((3 mu/(eta l) + mu^2 mu^2/l ceil(1/(mu eta))) / mu^2), mu = L/b — the digest's
    transcription of the authors' script, with '*' where '+' was meant.  Evidence only."""
    mu = _exact(L_over_b, "L/b", "Tables 10-12")
    e = _exact(eta, "eta", "Tables 10-12")
    inner = 1 / (mu * e)
    x = (3 * mu / (e * l) + mu**2 * mu**2 / l * _ceil(inner)) / mu**2
    return _ceil(x)


#: Tables 10-12 (App. D.3.2): (E*, mu*) for NoisyCGD constrained, D = 1, sigma = 3.
TABLES_10_12 = {
    "D": "1", "sigma": "3", "L_over_b": ("0.25", "0.5", "1"), "eta": ("0.04", "0.02", "0.01"),
    "printed": {
        10: {"0.25": (("31", "0.534"), ("62", "0.750"), ("123", "1.057")),
             "0.5": (("17", "0.764"), ("33", "1.067"), ("65", "1.500")),
             "1": (("10", "1.106"), ("20", "1.528"), ("40", "2.134"))},
        20: {"0.25": (("16", "0.382"), ("31", "0.534"), ("62", "0.750")),
             "0.5": (("9", "0.553"), ("17", "0.764"), ("33", "1.067")),
             "1": (("5", "0.816"), ("10", "1.106"), ("20", "1.528"))},
        40: {"0.25": (("8", "0.276"), ("16", "0.382"), ("31", "0.534")),
             "0.5": (("5", "0.408"), ("9", "0.553"), ("17", "0.764")),
             "1": (("3", "0.624"), ("5", "0.816"), ("10", "1.106"))},
    },
}


def tables_10_12_cell(l: int, L_over_b: str, eta: str, dps: int = DEFAULT_DPS) -> dict:
    """One cell: mu* (Thm 4.6 at its smallest valid E), the crossing E* by the text's definition,
    the printed-script E*, and q = D b/(eta L), the first epoch count Thm 4.6 covers."""
    f = TABLES_10_12
    q = q_ratio(L_over_b, 1, eta, f["D"], "Tables 10-12")
    e_valid = _ceil(q)
    return {
        "mu_star": thm_4_6(L_over_b, 1, f["sigma"], eta, f["D"], l, e_valid, dps=dps),
        "E_star": thm_4_6_crossing(L_over_b, eta, f["D"], l),
        "E_star_script": e_star_as_printed(L_over_b, eta, l),
        "E_min_valid": e_valid,
    }
