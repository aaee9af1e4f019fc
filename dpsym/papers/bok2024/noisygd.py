"""Full-batch NoisyGD on strongly convex losses (Sec. 4.1, App. C.2): Lemma 2.8, Thm C.5,
Lemma C.6, Thms 4.1, 4.2, Table 7, and the data of Figures 1 and 6.

Symbols: L (gradient sensitivity), n (dataset size), sigma (noise multiplier), eta (step
size), m, M (strong convexity, smoothness), t (steps), c (contraction factor of Lemma 2.8),
s (shift per step of the CNI, eta L / n for NoisyGD).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp import Gaussian, gdp_epsilon
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.bok2024 import printed
from dpsym.papers.registry import cite
from dpsym.shifts import kkt_certificate, lemma_c6_shifts, lemma_c6_symbolic, solve_shift_problem
from dpsym.shifts.interpolation import generic_branch

__all__ = [
    "FIGURE_1",
    "FIGURE_6",
    "LemC6Certificate",
    "figure_1_values",
    "figure_6_eps",
    "lem_2_8",
    "lem_c_6_certificate",
    "lem_c_6_residuals",
    "table_7",
    "thm_4_1",
    "thm_4_2",
    "thm_4_2_gap_to_composition",
    "thm_4_2_limits",
    "thm_4_2_montecarlo",
    "thm_c_5",
    "thm_c_5_instance_mu",
    "thm_c_5_tight_instance",
]

PAPER = "bok2024"


def lem_2_8(eta: Number, m: Number, M: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma 2.8: x -> x - eta grad f(x) is c-Lipschitz, c = max(|1 - eta m|, |1 - eta M|) < 1,
    for f m-strongly convex and M-smooth and 0 < eta < 2/M. Rounded up.

    >>> lem_2_8("0.05", 1, 10)
    mpf('0.95')
    """
    ref = cite(PAPER, "Lemma 2.8")
    with precision(dps + GUARD_DPS):
        e, mv, Mv = to_mpf(eta, "eta", ref), to_mpf(m, "m", ref), to_mpf(M, "M", ref)
        require(mv > 0, "m", m, "m > 0 (strong convexity)", ref)
        require(Mv >= mv, "M", M, f"M >= m = {m}", ref)
        require(0 < e < 2 / Mv, "eta", eta, f"0 < eta < 2/M = {mpmath.nstr(2 / Mv, 6)}", ref)
        c = max(abs(1 - e * mv), abs(1 - e * Mv))
    return round_up(c, dps)


@cache
def _c6_value() -> Callable[[mpf, mpf, int], mpf]:
    d = lemma_c6_symbolic()
    return sp.lambdify((d.c, d.s, d.t), d.value, "mpmath")


def thm_c_5(c: Number, s: Number, sigma: Number, t: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm C.5: a strongly contractive CNI (c < 1, shifts s, noise sigma) is mu-GDP after t
    steps, mu = sqrt(V) / sigma with V the optimal value of the shift problem (Lemma C.6),
    derived by sympy: V = (1 - c^t)/(1 + c^t) (1 + c)/(1 - c) s^2.  Rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_c_5("0.99", "0.1", 1, 100, dps=30), 10)
    '0.9610137446'
    """
    ref = cite(PAPER, "Thm C.5")
    t = require_integer("t", t, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        cv, sv, sg = to_mpf(c, "c", ref), to_mpf(s, "s", ref), to_mpf(sigma, "sigma", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        require(sv >= 0, "s", s, "s >= 0", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        mu = mpmath.sqrt(_c6_value()(cv, sv, t)) / sg
    return round_up(mu, dps)


def thm_c_5_instance_mu(c: Number, s: Number, sigma: Number, t: int,
                        dps: int = DEFAULT_DPS) -> mpf:
    """The exact mu of Thm C.5's tight instance (App. C.2, proof of Thm 4.2), by direct
    summation: phi(x) = c x and phi'(x) = c x + s from X_0 = X'_0 = 0 give X_t ~ N(0, v),
    X'_t ~ N(m, v) with m = sum_{j<t} c^j s, v = sum_{j<t} c^(2j) sigma^2, whose tradeoff is
    G(m / sqrt v). A second method for :func:`thm_c_5` (loops, no closed form). Rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_c_5_instance_mu("0.99", "0.1", 1, 100, dps=30), 10)
    '0.9610137446'
    """
    ref = cite(PAPER, "Thm C.5 (tight instance)")
    t = require_integer("t", t, ref, minimum=1, maximum=10**6)  # direct summation: t terms
    with precision(dps + GUARD_DPS):
        cv, sv, sg = to_mpf(c, "c", ref), to_mpf(s, "s", ref), to_mpf(sigma, "sigma", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        require(sv >= 0, "s", s, "s >= 0 (the shift phi'(x) - phi(x), a sensitivity)", ref)
        mean = mpmath.fsum(sv * cv**j for j in range(t))
        var = mpmath.fsum(sg**2 * cv ** (2 * j) for j in range(t))
        mu = mean / mpmath.sqrt(var)
    return round_up(mu, dps)


def thm_4_1(L: Number, n: Number, sigma: Number, t: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.1 (GDP composition, DRS22): NoisyGD is (L/(n sigma)) sqrt(t)-GDP. Rounded up.

    >>> thm_4_1(1, 10, 1, 100)
    mpf('1.0')
    """
    ref = cite(PAPER, "Thm 4.1")
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
    """Thm 4.2: NoisyGD on m-strongly convex, M-smooth losses with eta in (0, 2/M) is mu-GDP,
    mu = sqrt((1 - c^t)/(1 + c^t) (1 + c)/(1 - c)) L/(n sigma), c from Lemma 2.8, and this
    is optimal for eta <= 2/(M + m). It is Thm C.5 with s = eta L/n and noise eta sigma.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_4_2("0.1", 1, 1, "0.05", 1, 10, 160, dps=30), 10)   # Figure 1, t = 160
    '0.624329486'
    """
    ref = cite(PAPER, "Thm 4.2")
    c = lem_2_8(eta, m, M, dps=dps + GUARD_DPS)
    # c rounds up to 1 when eta m is below the working precision: Thm C.5 needs c < 1
    require(c < 1, "eta", eta, f"eta m large enough that c = 1 - eta m < 1 at {dps} digits "
            "(Lemma 2.8's contraction)", ref)
    with precision(dps + GUARD_DPS):
        e, Lv, nv = to_mpf(eta, "eta", ref), to_mpf(L, "L", ref), to_mpf(n, "n", ref)
        sg = to_mpf(sigma, "sigma", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        require(nv > 0, "n", n, "n > 0", ref)
        require(Lv >= 0, "L", L, "L >= 0 (a Lipschitz constant)", ref)
        s, noise = e * Lv / nv, e * sg
    return thm_c_5(c, s, noise, t, dps=dps)


#: Table 7's setting: L/(n sigma) = 0.1 (n = 1, sigma = 1, L = 0.1 gives the same mu).
TABLE_7_L_OVER_N_SIGMA = "0.1"


def table_7(dps: int = DEFAULT_DPS) -> list[tuple[int, list[mpf]]]:
    """Table 7 rows: (t, [Thm 4.1 mu, Thm 4.2 mu for each printed c]) at L/(n sigma) = 0.1.

    With s/sigma = L/(n sigma), Thm 4.2 depends only on c, so Thm C.5 is evaluated with
    s = 0.1, sigma = 1.

    >>> [float(v) for v in table_7(dps=20)[0][1][:2]]
    [0.31622776601683794, 0.30763189695974286]
    """
    eff = TABLE_7_L_OVER_N_SIGMA
    rows = []
    for t in printed.TABLE_7_STEPS:
        vals = [thm_4_1(eff, 1, 1, t, dps=dps)]
        vals += [thm_c_5(c, eff, 1, t, dps=dps) for c in printed.TABLE_7_C]
        rows.append((t, vals))
    return rows


def lem_c_6_residuals() -> dict[str, sp.Expr]:
    """Lemma C.6 derived (sympy, :func:`dpsym.shifts.lemma_c6_symbolic`) minus the printed
    closed forms (:data:`printed.LEM_C_6`), simplified, for symbolic t and k; and
    ``"lambda_t - 1"`` (lambda_t = 1 closes the interpolation).

    >>> set(lem_c_6_residuals().values())
    {0}
    """
    d = lemma_c6_symbolic()
    sym = {"c": d.c, "s": d.s, "t": d.t, "k": d.k}
    derived = {"value": d.value, "z_k": d.z, "a_k": d.a, "lambda_k": d.lam}
    out = {name: sp.simplify(derived[name] - printed.formula(printed.LEM_C_6[name], **sym))
           for name in derived}
    out["lambda_t - 1"] = sp.simplify(d.lam.subs(d.k, d.t) - 1)
    return out


@dataclass(frozen=True)
class LemC6Certificate:
    """Worst results of :func:`lem_c_6_certificate` over its random instances."""

    instances: tuple[tuple[float, float, int], ...]
    kkt_residual: mpf
    min_a: mpf
    min_z_interior: mpf
    slsqp_relative_gap: float


def lem_c_6_certificate(count: int = 6, seed: int = 6, dps: int = DEFAULT_DPS) -> LemC6Certificate:
    """Certify Lemma C.6's closed form on ``count`` seeded random (c, s, t): feasibility and
    the KKT conditions of the convex shift problem at ``dps`` digits
    (:func:`dpsym.shifts.kkt_certificate`: a proportional to the constraint gradient, every
    a_k and interior z_k > 0, so it is the global optimum), and the relative gap to a numeric
    QP solve (scipy SLSQP, float64).

    >>> cert = lem_c_6_certificate(count=2, dps=30)
    >>> cert.kkt_residual < mpf(10) ** -25, cert.min_a > 0, cert.slsqp_relative_gap < 1e-7
    (True, True, True)
    """
    _ref = cite(PAPER, "Lemma C.6")
    count = require_integer("count", count, _ref, minimum=1, maximum=10**4)
    seed = require_integer("seed", seed, _ref, minimum=0)
    rng = np.random.default_rng(seed)
    worst_kkt, min_a, min_z, worst_gap = mpf(0), mpf("inf"), mpf("inf"), 0.0
    cases = []
    for _ in range(count):
        c = float(rng.uniform(0.3, 0.99))
        s = float(rng.uniform(0.01, 2))
        t = int(rng.integers(2, 40))
        sol = lemma_c6_shifts(repr(c), repr(s), t, dps=dps)
        cert = kkt_certificate(repr(c), [repr(s)] * t, sol.a, dps=dps)
        _, numeric = solve_shift_problem(c, [s] * t)
        worst_gap = max(worst_gap, abs(numeric - float(sol.value)) / float(sol.value))
        worst_kkt = max(worst_kkt, cert["z_t"], cert["proportionality"])
        min_a, min_z = min(min_a, cert["min_a"]), min(min_z, cert["min_z_interior"])
        cases.append((c, s, t))
    return LemC6Certificate(tuple(cases), worst_kkt, min_a, min_z, worst_gap)


def thm_4_2_limits() -> dict[str, sp.Expr]:
    """Thm 4.2's ratio (mu n sigma / L)^2 = V/s^2 of Lemma C.6 (sympy): its value at t = 1
    (composition), its limit as t -> oo at c = 1/2 ((1 + c)/(1 - c) = 3), its limit as
    c -> 1 (t, composition again) and, with c = 1 - h, the h^2 coefficient at t = 5
    (-(t^3 - t)/12 = -10).

    >>> thm_4_2_limits()
    {'t=1': 1, 't->oo, c=1/2': 3, 'c->1': t, 'h^2 coefficient, t=5': -10}
    """
    d = lemma_c6_symbolic()
    c, s, t = d.c, d.s, d.t
    ratio = sp.simplify(d.value / s**2)
    h = sp.Symbol("h", positive=True)
    series = sp.series(ratio.subs({c: 1 - h, t: 5}), h, 0, 3).removeO()
    return {"t=1": sp.simplify(ratio.subs(t, 1)),
            "t->oo, c=1/2": sp.limit(ratio.subs(c, sp.Rational(1, 2)), t, sp.oo),
            "c->1": sp.simplify(sp.limit(ratio, c, 1)),
            "h^2 coefficient, t=5": sp.simplify(series.coeff(h, 2))}


def thm_4_2_gap_to_composition(cs: tuple[str, ...] = ("0.5", "0.9", "0.99", "0.999"),
                               ts: tuple[int, ...] = (2, 3, 10, 100, 1000),
                               dps: int = DEFAULT_DPS) -> mpf:
    """max over c in ``cs`` and t in ``ts`` (t > 1) of mu_Thm4.2 - mu_Thm4.1 in units of
    L/(n sigma): negative means Thm 4.2 strictly improves on composition ("for all t > 1").

    >>> thm_4_2_gap_to_composition(dps=20) < 0
    True
    """
    worst = mpf("-inf")
    for c in cs:
        for t in ts:
            with precision(dps + GUARD_DPS):
                worst = max(worst, thm_c_5(c, 1, 1, t, dps=dps) - thm_4_1(1, 1, 1, t, dps=dps))
    return worst


def thm_c_5_tight_instance() -> dict[str, sp.Expr]:
    """The tight instance of Thm C.5 by sympy: phi(x) = c x vs phi'(x) = c x + s from 0 give
    X_t ~ N(0, v), X'_t ~ N(m, v); returns m, v and m^2/v - V/sigma^2 (0: the instance's
    tradeoff G(m / sqrt v) is exactly the bound, so Thm C.5 and Thm 4.2 are tight).

    >>> thm_c_5_tight_instance()["residual"]
    0
    """
    d = lemma_c6_symbolic()
    c, s, t = d.c, d.s, d.t
    j = sp.Symbol("j", integer=True, nonnegative=True)
    sigma = sp.Symbol("sigma", positive=True)
    mean = generic_branch(sp.summation(s * c**j, (j, 0, t - 1)))
    var = generic_branch(sp.summation(sigma**2 * c ** (2 * j), (j, 0, t - 1)))
    return {"mean": sp.factor(mean), "variance": sp.factor(var),
            "residual": sp.simplify(mean**2 / var - d.value / sigma**2)}


def thm_4_2_montecarlo(c: float = 0.9, s: float = 0.1, sigma: float = 1.0, t: int = 50,
                       n: int = 100_000, seed: int = 20240601,
                       alphas: tuple[float, ...] = (0.01, 0.05, 0.1, 0.2, 0.3, 0.5)) -> dict:
    """Tightness of Thm C.5 / 4.2 by simulation on its tight instance (App. C.2).

    phi(x) = c x, phi'(x) = c x + s, X_0 = X'_0 = 0, Gaussian noise sigma, in 1-D.  Both
    chains are run for t steps (n samples each, seeded).  The likelihood ratio is monotone
    in x, so the optimal tests are thresholds: at type-I error alpha the threshold is the
    empirical (1 - alpha)-quantile of X_t and the type-II error is the fraction of X'_t
    below it.  Returned: per alpha the empirical beta, G(mu)(alpha), a standard error
    combining the binomial error of beta and the quantile error propagated through G',
    and the z-score.

    >>> r = thm_4_2_montecarlo(n=20_000)
    >>> max(abs(row["z"]) for row in r["rows"]) < 4
    True
    """
    _mc = cite(PAPER, "Thm C.5 (Monte Carlo)")
    t = require_integer("t", t, _mc, minimum=1, maximum=10**5)
    n = require_integer("n", n, _mc, minimum=2, maximum=10**7)
    seed = require_integer("seed", seed, _mc, minimum=0)
    with precision(DEFAULT_DPS):  # a float input converts exactly, a string once
        c, s, sigma = [float(to_mpf(x, k, _mc)) for x, k in ((c, "c"), (s, "s"), (sigma, "sigma"))]
    require(0 <= c < 1, "c", c, "0 <= c < 1", _mc)
    require(s >= 0, "s", s, "s >= 0", _mc)
    require(sigma > 0, "sigma", sigma, "sigma > 0", _mc)
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
            se = float(np.sqrt(beta * (1 - beta) / n + slope**2 * a * (1 - a) / n))
            rows.append({"alpha": a, "beta_mc": beta_hat, "beta_exact": beta, "se": se,
                         "z": (beta_hat - beta) / se})
    return {"mu": mu, "rows": rows, "n": n, "t": t, "c": c, "s": s, "sigma": sigma}


#: Figure 6 (App. D.3.1): c = 0.99, L/(n sigma) = 0.1; f-DP at t in t_fdp, eps at the deltas.
FIGURE_6 = {"c": "0.99", "L_over_n_sigma": "0.1", "t_fdp": (10, 100, 1000),
            "t_eps": (10, 20, 40, 80, 160, 320, 640), "deltas": ("1e-3", "1e-5")}


def figure_6_eps(ts: tuple[int, ...] | None = None,
                 dps: int = 20) -> dict[str, dict[str, list[mpf]]]:
    """Figure 6's right panel: eps(delta) of Thm 4.2 ("ours") and Thm 4.1 ("composition") at
    the steps ``ts`` (default: the t at which the paper marks points).

    >>> from dpsym.numerics import nstr
    >>> nstr(figure_6_eps(ts=(640,))["1e-5"]["ours"][0], 6)
    '6.54087'
    """
    f = FIGURE_6
    ts = ts or f["t_eps"]
    out: dict[str, dict[str, list[mpf]]] = {}
    for delta in f["deltas"]:
        ours = [gdp_epsilon(thm_c_5(f["c"], f["L_over_n_sigma"], 1, t, dps=dps), delta, dps=dps)
                for t in ts]
        comp = [gdp_epsilon(thm_4_1(f["L_over_n_sigma"], 1, 1, t, dps=dps), delta, dps=dps)
                for t in ts]
        out[delta] = {"ours": ours, "composition": comp}
    return out


#: Figure 1 (Sec. 1, App. D.1): m = 1, M = 10, eta = 0.05 (so c = 0.95), L/(n sigma) = 0.1;
#: [YS22, Thm D.6] with c' = 1 - eta m / 2 = 0.975 (the authors' script).
FIGURE_1 = {"m": "1", "M": "10", "eta": "0.05", "L_over_n_sigma": "0.1", "c_prime": "0.975",
            "t_eps": (10, 20, 40, 80, 160), "t_fdp": 160, "no_privacy_mu": "10",
            "delta": "1e-5"}


@cache
def figure_1_values(ts: tuple[int, ...] | None = None, dps: int = 20) -> dict[str, list[mpf]]:
    """Figure 1's right panel at each t of ``ts`` (default: the paper's marked points):
    mu of Thm 4.2 ("mu_ours") and Thm 4.1 ("mu_comp"), and eps at delta = 1e-5 of ours in
    f-DP (Lemma A.3), ours in RDP (Lemma A.4, then App. A.1), the prior RDP bound
    [YS22, Thm D.6] (App. A.1) and composition. Cached (about 1 s per t): do not mutate.

    >>> from dpsym.numerics import nstr
    >>> v = figure_1_values(ts=(160,))
    >>> nstr(v["eps_fdp"][0], 5), nstr(v["eps_rdp_ours"][0], 5), nstr(v["eps_rdp_ys22"][0], 5)
    ('2.5568', '2.7732', '4.0611')
    """
    from dpsym.papers.bok2024.appendix_a import app_a1_epsilon
    from dpsym.papers.bok2024.prior import ys22_thm_d_6_rho

    f = FIGURE_1
    ts = ts or f["t_eps"]
    c = lem_2_8(f["eta"], f["m"], f["M"], dps=dps)
    out: dict[str, list[mpf]] = {k: [] for k in (
        "mu_ours", "mu_comp", "eps_fdp", "eps_rdp_ours", "eps_rdp_ys22", "eps_comp")}
    for t in ts:
        mu = thm_4_2(f["L_over_n_sigma"], 1, 1, f["eta"], f["m"], f["M"], t, dps=dps)
        comp = thm_4_1(f["L_over_n_sigma"], 1, 1, t, dps=dps)
        rho_ys = ys22_thm_d_6_rho(f["L_over_n_sigma"], c, f["c_prime"], t, dps=dps)
        out["mu_ours"].append(mu)
        out["mu_comp"].append(comp)
        out["eps_fdp"].append(gdp_epsilon(mu, f["delta"], dps=dps))
        with precision(dps + GUARD_DPS):  # rho = mu^2/2 formed here, not at the caller's
            rho = mu**2 / 2
        out["eps_rdp_ours"].append(app_a1_epsilon(rho, f["delta"], dps=dps)["min"])
        out["eps_rdp_ys22"].append(app_a1_epsilon(rho_ys, f["delta"], dps=dps)["min"])
        out["eps_comp"].append(gdp_epsilon(comp, f["delta"], dps=dps))
    return out
