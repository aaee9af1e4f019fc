"""Full-batch NoisyGD on strongly convex losses (Sec. 4.1, App. C.2): Lemma 2.8, Thm C.5,
Thms 4.1, 4.2, Table 7, Figure 6.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import mpmath
import numpy as np
import sympy as sp
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp import Gaussian, gdp_epsilon
from dpsym.figures import PALETTE, epsilon_panel, figure, new_figure, tradeoff_panel
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.shifts import lemma_c6_symbolic

__all__ = [
    "FIGURE_1",
    "FIGURE_6",
    "TABLE_7",
    "figure_1",
    "figure_1_values",
    "figure_6",
    "figure_6_eps",
    "lem_2_8",
    "table_7",
    "thm_4_1",
    "thm_4_2",
    "thm_4_2_montecarlo",
    "thm_c_5",
]


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




#: Figure 1 (Sec. 1, App. D.1): m = 1, M = 10, eta = 0.05 (so c = 0.95), L/(n sigma) = 0.1;
#: [YS22, Thm D.6] uses c' = 1 - eta m / 2 = 0.975 (authors' script).
FIGURE_1 = {"m": "1", "M": "10", "eta": "0.05", "L_over_n_sigma": "0.1", "c_prime": "0.975",
            "t_eps": (10, 20, 40, 80, 160), "t_fdp": 160, "no_privacy_mu": "10",
            "delta": "1e-5"}


def figure_1_values(dps: int = 20) -> dict[str, list[mpf]]:
    """Figure 1's right panel at each t: mu of Thm 4.2 ("mu_ours") and Thm 4.1 ("mu_comp"),
    and eps at delta = 1e-5 of ours in f-DP (Lemma A.3), ours in RDP (Lemma A.4, then
    App. A.1), the prior RDP bound [YS22, Thm D.6] (App. A.1) and composition."""
    from dpsym.papers.bok2024.appendix_a import app_a1_epsilon
    from dpsym.papers.bok2024.prior import ys22_thm_d_6_rho

    f = FIGURE_1
    c = lem_2_8(f["eta"], f["m"], f["M"], dps=dps)
    out: dict[str, list[mpf]] = {k: [] for k in (
        "mu_ours", "mu_comp", "eps_fdp", "eps_rdp_ours", "eps_rdp_ys22", "eps_comp")}
    for t in f["t_eps"]:
        mu = thm_4_2(f["L_over_n_sigma"], 1, 1, f["eta"], f["m"], f["M"], t, dps=dps)
        comp = thm_4_1(f["L_over_n_sigma"], 1, 1, t, dps=dps)
        rho_ys = ys22_thm_d_6_rho(f["L_over_n_sigma"], c, f["c_prime"], t, dps=dps)
        out["mu_ours"].append(mu)
        out["mu_comp"].append(comp)
        out["eps_fdp"].append(gdp_epsilon(mu, f["delta"], dps=dps))
        out["eps_rdp_ours"].append(app_a1_epsilon(mu**2 / 2, f["delta"], dps=dps)["min"])
        out["eps_rdp_ys22"].append(app_a1_epsilon(rho_ys, f["delta"], dps=dps)["min"])
        out["eps_comp"].append(gdp_epsilon(comp, f["delta"], dps=dps))
    return out


@figure("bok2024", "figure_1", "NoisyGD strongly convex: f-DP, RDP and prior bounds (Fig. 1)")
def figure_1(values: dict[str, list[mpf]] | None = None) -> Figure:
    """Figure 1: tradeoff curves at t = 160 (left) and eps(delta = 1e-5) vs t (right)."""
    f = FIGURE_1
    v = values or figure_1_values()
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=3.6)
    t = f["t_fdp"]
    ours = thm_4_2(f["L_over_n_sigma"], 1, 1, f["eta"], f["m"], f["M"], t, dps=15)
    comp = thm_4_1(f["L_over_n_sigma"], 1, 1, t, dps=15)
    tradeoff_panel(ax, [
        (0, "perfect privacy", "0.5", ":"),
        (ours, f"ours (optimal), G({mpmath.nstr(ours, 4)})", PALETTE[0], "-"),
        (comp, f"composition, G({mpmath.nstr(comp, 4)})", PALETTE[1], "--"),
        (f["no_privacy_mu"], "no privacy, G(10)", "0.2", "-."),
    ], f"f-DP at t = {t}")
    epsilon_panel(ax2, f["t_eps"], [
        (v["eps_fdp"], "ours, f-DP (Thm 4.2)", PALETTE[0], "-"),
        (v["eps_rdp_ours"], "ours, RDP (Thm 4.2 + A.4)", PALETTE[2], "-"),
        (v["eps_rdp_ys22"], "prior RDP [YS22, Thm D.6]", "0.35", "-."),
        (v["eps_comp"], "composition (Thm 4.1)", PALETTE[1], "--"),
    ], "steps t", r"$(\varepsilon, 10^{-5})$-DP, c = 0.95, L/(n$\sigma$) = 0.1")
    return fig
