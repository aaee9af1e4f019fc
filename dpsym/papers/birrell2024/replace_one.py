"""Birrell, Ebrahimi, Behnia & Pacheco 2024: FSwoR under replace-one (Secs. 3.2.2, 3.4, App. C, E).

Thms 3.4 and 3.5, the derivatives (65)-(67) and their bounds (83), (90), the maximisations
(69) and (136), the Wang, Balle & Kasiviswanathan 2019 comparison bounds (127)-(133), the
factor 4 of Sec. 3.4, and the data of Figures 2 and 3 (the (eps, delta) curves).  Symbols
as in the paper: ``alpha, sigma, q, m, T``; sigma is the noise multiplier, q = |B|/|D|;
shift pairs are |Delta mu| = rho1 r_t, |Delta mu'| = rho2 r_t at an angle.

>>> from dpsym.numerics import nstr
>>> nstr(thm_3_4(alpha=10, sigma=6, q="0.0024", m=4, dps=30), 6)
'3.55685e-6'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import HypothesisError, require, require_dps, require_integer
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, Number, precision, to_mpf
from dpsym.papers.birrell2024 import printed
from dpsym.papers.birrell2024.add_remove import SIGMA, T_EPOCHS_250, Q
from dpsym.papers.registry import cite
from dpsym.rdp.conversions import epsilon_from_rdp
from dpsym.rdp.gaussian_mixture import F_minus_1, log_H
from dpsym.rdp.taylor import (
    A_s,
    B_s,
    C_s,
    E_tilde,
    F_tilde,
    alpha_s,
    fswor_add_remove_rdp,
    fswor_replace_one_rdp,
    h_derivative_at_0,
    max_second_derivative,
    replace_one_derivative_at_0,
    replace_one_lead,
    replace_one_moment,
    second_derivative_max_value,
    sigma_s,
)
from dpsym.rdp.wang2019 import wang_K, wang_lower_rdp, wang_upper_rdp

PAPER = "birrell2024"

__all__ = [
    "ADMISSIBLE_PAIRS",
    "ALPHAS_FIG2",
    "ALPHAS_FIG3",
    "DELTAS_FIG3",
    "DELTAS_FIG4",
    "FIG3_CURVES",
    "THM_3_4_POINTS",
    "Eq135Check",
    "eps_over_grid",
    "eq_65",
    "eq_65_derivations",
    "eq_69",
    "eq_69_closed_form",
    "eq_83",
    "eq_83_domination",
    "eq_90",
    "eq_127",
    "eq_130",
    "eq_132",
    "eq_133",
    "eq_133_equals_thm_3_1",
    "eq_135_check",
    "eq_136",
    "eq_136_closed_form",
    "factor_4_leading_order",
    "factor_4_ratios",
    "figure_2_curves",
    "figure_3_epsilon",
    "figure_3_table",
    "integer_orders_eps",
    "second_derivative_maxima",
    "thm_3_4",
    "thm_3_4_domination",
    "thm_3_5",
]

#: Figures 3, 4: alpha = 1 + 10^linspace(-1, 1.5, 500) (``plot_Fig2_3.py``, ``plot_Fig4.py``).
ALPHAS_FIG3 = tuple(1 + 10 ** float(x) for x in np.linspace(-1, 1.5, 500))
#: Figure 2 (``fs_rdp_bounds_figs.py``): alpha = 1 + 10^linspace(-2, 1.8, 100).
ALPHAS_FIG2 = tuple(1 + 10 ** float(x) for x in np.linspace(-2, 1.8, 100))
#: Figure 3's delta values as in the authors' script (the text names 1e-4 ... 1e-10).
DELTAS_FIG3 = (*(m * 10.0**e for e in range(-10, -4) for m in (1, 3, 5)), 1e-4)
#: Figure 4 (top): 1e-3 ... 1e-12.
DELTAS_FIG4 = tuple(10.0**-e for e in range(3, 13))


# --- statements -------------------------------------------------------------------------


def thm_3_4(alpha: Number, sigma: Number, q: Number, m: int = 4, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 3.4 (14): one FSwoR replace-one step has RDP <=
    (1/(alpha-1)) log[1 + q^2 alpha(alpha-1)(e^{4/sigma^2} - e^{2/sigma^2})
    + sum_{k=3}^{m-1} q^k F~_{alpha,sigma,k}/k! + E~_{alpha,sigma,m}(q)].  Rounded up."""
    return fswor_replace_one_rdp(alpha, sigma, q, m, dps=dps)


def thm_3_5(alpha: Number, sigma: Number, q: Number, m: int = 4, T: int = 1,
            dps: int = DEFAULT_DPS) -> mpf:
    """Thm 3.5 (15): T FSwoR replace-one steps with constant sigma: T times Thm 3.4."""
    try:
        return fswor_replace_one_rdp(alpha, sigma, q, m, steps=T, dps=dps)
    except HypothesisError as exc:  # the user called Thm 3.5: cite it, not Thm 3.4
        raise HypothesisError(exc.name if exc.name != "steps" else "T", exc.value,
                              exc.hypothesis.replace("steps", "T"),
                              cite(PAPER, "Thm 3.5")) from None


@functools.cache
def _eq_65_fn(k: int):
    return sp.lambdify((alpha_s, A_s, B_s, C_s), replace_one_derivative_at_0(k), "mpmath")


def eq_65(k: int, alpha: Number, sigma: Number, rho1: Number, rho2: Number, angle: Number,
          dps: int = 30) -> mpf:
    """F_alpha^{(k)}(0) of (65) at the shift pair |Delta mu| = rho1 r_t, |Delta mu'| = rho2 r_t
    at angle ``angle``: the sympy derivation :func:`dpsym.rdp.taylor.
    replace_one_derivative_at_0` at A = |Delta mu|^2/sigma~^2, B = |Delta mu'|^2/sigma~^2,
    C = Delta mu.Delta mu'/sigma~^2, sigma~ = sigma r_t / 2 (37).

    >>> from dpsym.numerics import nstr
    >>> nstr(eq_65(2, 10, 6, 1, 1, mpmath.pi / 3), 12)
    '10.8704383167'
    """
    ref = cite(PAPER, "eq. (65)")
    kk = require_integer("k", k, ref, minimum=0)
    with precision(dps):
        a, s = to_mpf(alpha, "alpha", ref), to_mpf(sigma, "sigma", ref)
        r1, r2 = to_mpf(rho1, "rho1", ref), to_mpf(rho2, "rho2", ref)
        ph = to_mpf(angle, "angle", ref)
        st2 = (s / 2) ** 2
        return _eq_65_fn(kk)(a, r1 * r1 / st2, r2 * r2 / st2, r1 * r2 * mpmath.cos(ph) / st2)


def eq_83(alpha: Number, sigma: Number, k: int, dps: int = DEFAULT_DPS) -> mpf:
    """F~_{alpha,sigma,k} of (83)."""
    return F_tilde(alpha, sigma, k, dps=dps)


def eq_90(alpha: Number, sigma: Number, q: Number, m: int, dps: int = DEFAULT_DPS) -> mpf:
    """E~_{alpha,sigma,m}(q) of (90)."""
    return E_tilde(alpha, sigma, q, m, dps=dps)


def eq_69(sigma: Number, dps: int = 30) -> mpf:
    """max F''(0)/(alpha(alpha-1)) over the FSwoR constraints (60), numerically (cf. (69))."""
    return max_second_derivative(sigma, 1, 1, dps=dps)[0]


def eq_69_closed_form(sigma: Number, dps: int = 30) -> mpf:
    """(67) at the maximiser of (69) (|Delta mu| = |Delta mu'| = r_t at 60 degrees), divided
    by alpha(alpha-1): 2(e^{4/sigma^2} - e^{2/sigma^2})."""
    return second_derivative_max_value(sigma, "fswor", dps=dps)


def eq_136(sigma: Number, dps: int = 30) -> mpf:
    """max F''(0)/(alpha(alpha-1)) without the coupling |Delta mu - Delta mu'| <= r_t,
    numerically (cf. (136))."""
    return max_second_derivative(sigma, 1, 2, dps=dps)[0]


def eq_136_closed_form(sigma: Number, dps: int = 30) -> mpf:
    """(67) at the uncoupled maximiser (anti-parallel, norms r_t), divided by alpha(alpha-1):
    2(e^{4/sigma^2} - e^{-4/sigma^2})."""
    return second_derivative_max_value(sigma, "uncoupled", dps=dps)


def eq_127(alpha: int, sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Wang et al. upper bound K(alpha)/(alpha-1), integer alpha >= 2 (127).  Rounded up.

    (127) is stated for integer orders; a real alpha is (130), :func:`eq_130`.
    """
    require_integer("alpha", alpha, cite(PAPER, "eq. (127)"), minimum=2)
    return wang_upper_rdp(alpha, sigma, q, dps=dps)


def eq_130(alpha: Number, sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Wang et al. upper bound at real alpha >= 2 by interpolating K (130).  Rounded up."""
    return wang_upper_rdp(alpha, sigma, q, dps=dps)


def eq_132(sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Wang et al. upper bound on (1, 2): the constant K(2) (131)-(132)."""
    return wang_K(2, sigma, q, dps=dps)


def eq_133(alpha: int, sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Wang et al. lower bound (Prop. 11), integer alpha >= 2 (133).  Rounded down."""
    require_integer("alpha", alpha, cite(PAPER, "eq. (133)"), minimum=2)
    return wang_lower_rdp(alpha, sigma, q, dps=dps)


# --- evidence: derivations, maximisations, dominations ----------------------------------------


@functools.cache
def eq_65_derivations(ks: Sequence[int] = (3, 4, 5)) -> dict[str, Derivation]:
    """(66), (67) and (65) against the sympy derivation of F^(k)(0).

    ``"66,F(0)"``, ``"66,F'(0)"``: F(0) = 1 and F'(0) = 0; ``"67"``: F''(0) against the
    printed (67);
    ``"65,k"``: the printed general formula (65) with E[X^j Y^(k-j)] from the Gaussian MGF
    (:func:`dpsym.rdp.taylor.replace_one_moment`) against the direct derivative.
    """
    d0, d1 = replace_one_derivative_at_0(0), replace_one_derivative_at_0(1)
    out = {"66,F(0)": Derivation(d0, sp.Integer(1), sp.simplify(d0 - 1), "F(0) = 1"),
           "66,F'(0)": Derivation(d1, sp.Integer(0), sp.simplify(d1), "F'(0) = 0")}
    d2 = replace_one_derivative_at_0(2)
    p67 = printed.formula(printed.EQ_67)
    names = {str(x): x for x in p67.free_symbols}
    p67 = p67.subs({names["alpha"]: alpha_s, names["A"]: A_s, names["B"]: B_s, names["C"]: C_s})
    out["67"] = Derivation(d2, p67, sp.simplify(d2 - p67), "F''(0) against the printed (67)")
    k_s, j_s = sp.symbols("k j", integer=True, nonnegative=True)
    moment = sp.Function("E")
    for k in ks:
        p65 = sp.sympify(printed.EQ_65.value, locals={"alpha": alpha_s, "k": k_s, "j": j_s,
                                                      "E": moment})
        p65 = p65.subs(k_s, k).doit()
        p65 = p65.replace(moment, lambda j, ell: replace_one_moment(int(j), int(ell)))
        dk = replace_one_derivative_at_0(k)
        out[f"65,k={k}"] = Derivation(dk, p65, sp.simplify(sp.expand(dk - p65)),
                                      f"(65) at k = {k}")
    return out


@functools.cache
def second_derivative_maxima(scheme: str, sigmas: Sequence[Number] = (1, 6, 20),
                             grid: int = 24, dps: int = 30) -> list[tuple]:
    """For each sigma: (sigma, numeric max of (67)/(alpha(alpha-1)) under ``scheme``'s
    constraints, the value at the corner (:func:`second_derivative_max_value`), the printed
    formula ((69), (96) or (136)) / (alpha(alpha-1)), |a|, |b|, angle of the maximiser)."""
    rn, rd = {"fswor": (1, 1), "poisson": ("0.5", 1), "uncoupled": (1, 2)}[scheme]
    p = {"fswor": printed.EQ_69, "poisson": printed.EQ_96, "uncoupled": printed.EQ_136}[scheme]
    rows = []
    for s in sigmas:
        val, x, y, ang = max_second_derivative(s, rn, rd, grid=grid, dps=dps)
        with precision(dps):
            pv = mpmath.mpf(sp.N(printed.formula(p, sigma=sp.Integer(s) if isinstance(s, int)
                                                 else sp.Rational(str(s)), alpha=2) / 2, dps))
        rows.append((s, val, second_derivative_max_value(s, scheme, dps=dps), pv, x, y, ang))
    return rows


#: FSwoR-admissible shift pairs (60) (|Delta mu|, |Delta mu'| in units of r_t, angle).
ADMISSIBLE_PAIRS = (("1", "1", mpmath.pi / 3), ("1", "1", mpmath.pi / 6),
                    ("0.5", "0.5", mpmath.pi), ("0.8", "0.6", mpmath.pi / 2),
                    ("1", "0.3", 0), ("0.2", "1", mpmath.pi / 2))


@functools.cache
def eq_83_domination(ks: Sequence[int] = (3, 4, 5), sigmas: Sequence[Number] = (1, 6, 20),
                     alphas: Sequence[Number] = ("1.5", "10", "50.5"),
                     pairs: Sequence[tuple] = ADMISSIBLE_PAIRS, dps: int = 30) -> tuple:
    """max |F^(k)(0)| / F~_{alpha,sigma,k} over FSwoR-admissible pairs: (ratio, k, sigma,
    alpha).  A ratio > 1 would contradict (83)."""
    worst = (mpf(-1), None, None, None)
    for k in ks:
        for s in sigmas:
            for a in alphas:
                bound = F_tilde(a, s, k, dps=dps)
                for r1, r2, ph in pairs:
                    v = eq_65(k, a, s, r1, r2, ph, dps=dps)
                    with precision(dps):
                        ratio = abs(v) / bound
                    if ratio > worst[0]:
                        worst = (ratio, k, s, a)
    return worst


#: (alpha, sigma, q, index into ADMISSIBLE_PAIRS) of :func:`thm_3_4_domination`.
THM_3_4_POINTS = (("2.5", 6, "0.05", 0), ("8.3", 2, "0.1", 1), ("20", 6, "0.1", 0),
                  ("20", 6, "0.1", 2))


@functools.cache
def thm_3_4_domination(points: Sequence[tuple] = THM_3_4_POINTS, nodes: int = 40) -> tuple:
    """min relative slack (Thm 3.4 (m = 4) - exact)/exact of the one-step replace-one
    divergence log F/(alpha-1) (2-D Gauss-Hermite, ``nodes``^2, 20 digits) at the given
    admissible pairs: (slack, alpha, sigma, q, |Delta mu|, |Delta mu'|)."""
    worst = None
    for a, s, q, i in points:
        r1, r2, ph = ADMISSIBLE_PAIRS[i]
        with precision(25):
            exact = mpmath.log1p(F_minus_1(a, s, q, rho1=r1, rho2=r2, angle=ph, dps=20,
                                           nodes=nodes)) / (mpf(a) - 1)
            bound = thm_3_4(a, s, q, 4, dps=25)
            slack = (bound - exact) / exact
        if worst is None or slack < worst[0]:
            worst = (slack, a, s, q, r1, r2)
    return worst


def factor_4_leading_order() -> dict[str, sp.Expr]:
    """The q^2 coefficients of the one-step bounds, as series in u = 1/sigma^2 to O(u^2).

    ``"add-remove"``: Thm 3.3 (from the derived H''(0)/2); ``"replace-one"``: Thm 3.4 (from
    the derived (67) at its maximiser); ``"wang"``: Wang et al.'s (18) as printed; and the
    ``"ratio"`` of Wang's leading term to the replace-one one (the paper's factor 4).
    """
    u, _q = sp.Symbol("u", positive=True), sp.Symbol("q", positive=True)
    to_u = {sigma_s: 1 / sp.sqrt(u)}

    def lead(expr: sp.Expr) -> sp.Expr:
        return sp.expand(sp.series(expr.subs(to_u), u, 0, 2).removeO())

    ar = lead(h_derivative_at_0(2) / 2 / (alpha_s - 1))
    ro = lead(alpha_s * replace_one_lead("fswor"))
    w = printed.formula(printed.EQ_18)
    names = {str(x): x for x in w.free_symbols}
    wang = lead(w.subs({names["alpha"]: alpha_s, names["sigma"]: sigma_s}) / names["q"] ** 2)
    return {"add-remove": ar, "replace-one": ro, "wang": wang,
            "ratio": sp.simplify(sp.limit(wang / ro, u, 0))}


def factor_4_ratios(alphas: Sequence[int] = (2, 4, 8, 16), sigma: Number = 200,
                    q: Number = "1e-8", dps: int = 30) -> list[tuple[int, mpf, mpf]]:
    """Wang upper / Thm 3.4 (m = 4) and Wang upper / Thm 3.3 (m = 3) per alpha."""
    rows = []
    for a in alphas:
        w = wang_upper_rdp(a, sigma, q, dps=dps)
        with precision(dps):
            rows.append((a, w / thm_3_4(a, sigma, q, 4, dps=dps),
                         w / fswor_add_remove_rdp(a, sigma, q, 3, dps=dps)))
    return rows


@functools.cache
def eq_133_equals_thm_3_1(alphas: Sequence[int] = (2, 3, 5, 10, 32, 64),
                          sigmas: Sequence[Number] = ("0.7", 6, 50),
                          qs: Sequence[Number] = ("1e-6", "0.0024", "0.3"),
                          dps: int = 50) -> mpf:
    """max relative difference between Wang et al.'s lower bound (133) (log-space sum,
    :mod:`dpsym.rdp.wang2019`) and the exact add/remove quantity log H/(alpha-1) of Thm 3.1
    (Mironov et al.'s binomial sum at sigma/2, :mod:`dpsym.rdp.subsampled_gaussian`):
    two independent evaluations of one number at integer alpha."""
    worst = mpf(0)
    for a in alphas:
        for s in sigmas:
            for q in qs:
                w = wang_lower_rdp(a, s, q, dps=dps)
                h = log_H(a, s, q, dps=dps + 10)
                with precision(dps + 10):
                    worst = max(worst, abs(w / (h / (a - 1)) - 1))
    return worst


@dataclass(frozen=True)
class Eq135Check:
    """(135) read as |Delta mu_t . Delta mu'_t| <= r_t^2: the maximum of (67)/(alpha(alpha-1))
    under |Delta mu|, |Delta mu'| <= r_t alone (``uncoupled``, numerically; the inner
    product then reaches -r_t^2) against the printed (136) (``printed_136``)."""

    sigma: mpf
    uncoupled: mpf
    printed_136: mpf


def eq_135_check(sigma: Number = 6, dps: int = 30) -> Eq135Check:
    """Evidence for reading (135) with Delta mu_t: it is what gives the printed (136).  As
    printed, mu_t . Delta mu'_t involves the mean mu_t = theta_t - eta_t (gradient average),
    which (134) does not bound at all."""
    ref = cite(PAPER, "eq. (135)")
    dps = require_dps(dps, ref)
    with precision(dps):
        require(to_mpf(sigma, "sigma", ref) > 0, "sigma", sigma, "sigma > 0", ref)
        pv = mpmath.mpf(sp.N(printed.formula(printed.EQ_136, alpha=2,
                                             sigma=sp.nsimplify(sigma)) / 2, dps + 5))
    return Eq135Check(to_mpf(sigma, "sigma"), eq_136(sigma, dps=dps), pv)


# --- (eps, delta) over an order grid ------------------------------------------------------


def eps_over_grid(rdp_one_step: Callable[[float], mpf], alphas: Sequence[float], T: Number,
                  delta: Number, conversion: str = "balle2020", dps: int = 30,
                  cache: dict[int, mpf] | None = None, coarse: int = 10) -> tuple[mpf, float]:
    """(min eps, its order) of T * rdp_one_step(alpha) over the grid ``alphas`` at ``delta``.

    The conversion is Balle et al. 2020, Thm 21 by default (as Opacus ``get_privacy_spent``
    and the authors' scripts).  Search: every ``coarse``-th order, then every order within
    ``coarse`` of the best; exact for a unimodal eps along the grid (the case for these
    curves), and whatever it returns is a valid bound, since every order gives one.
    ``cache`` (index -> one-step RDP) lets several deltas share evaluations.  T may be
    non-integer (the authors' "250 epochs" is T = 104166.67); it multiplies the RDP.
    """
    cache = {} if cache is None else cache
    with precision(dps + 10):
        tv = to_mpf(T, "T")

    def eps_at(i: int) -> mpf:
        if i not in cache:
            cache[i] = rdp_one_step(alphas[i])
        with precision(dps + 10):
            r = tv * cache[i]
        return epsilon_from_rdp(alphas[i], r, delta, conversion, dps=dps)

    n = len(alphas)
    idx = [*range(0, n, coarse), n - 1]
    best = min(idx, key=eps_at)
    window = range(max(0, best - coarse), min(n, best + coarse + 1))
    best = min(window, key=eps_at)
    return eps_at(best), alphas[best]


def integer_orders_eps(rdp_int: Callable[[int], mpf], orders: Sequence[int], T: Number,
                       delta: Number, dps: int = 30,
                       cache: dict[int, mpf] | None = None) -> tuple[mpf, int]:
    """(min eps, its order) of T * rdp_int(alpha) over integer ``orders`` (Balle et al.)."""
    cache = {} if cache is None else cache
    with precision(dps + 10):
        tv = to_mpf(T, "T")
    best = None
    for a in orders:
        if a not in cache:
            cache[a] = rdp_int(a)
        with precision(dps + 10):
            e = epsilon_from_rdp(a, tv * cache[a], delta, dps=dps)
        if best is None or e < best[0]:
            best = (e, a)
    return best


#: The one-step curves of Figures 3 and 4 (top) by key (Thm C.9's is in
#: :mod:`.poisson_replace_one`).
FIG3_CURVES: dict[str, Callable[[float, int], mpf]] = {
    "thm3.4-m3": lambda a, d: thm_3_4(a, SIGMA, Q, 3, dps=d),
    "thm3.4-m4": lambda a, d: thm_3_4(a, SIGMA, Q, 4, dps=d),
    "thm3.4-m5": lambda a, d: thm_3_4(a, SIGMA, Q, 5, dps=d),
    "wang-upper": lambda a, d: wang_upper_rdp(a, SIGMA, Q, dps=d),
}
_FIG3_CACHES: dict[tuple[str, int], dict[int, mpf]] = {}


def figure_3_epsilon(curve: str, delta: Number, T: Number = T_EPOCHS_250,
                     conversion: str = "balle2020", orders: Sequence[float] | None = None,
                     dps: int = 15) -> tuple[mpf, float]:
    """(eps, best order) of a Figure 3 / 4 (top) curve after T steps at ``delta``.

    ``curve`` is a key of :data:`FIG3_CURVES` (the grid ALPHAS_FIG3 of the authors'
    scripts, or ``orders``) or ``"wang-lower"`` (integers 2..32).  One-step values are
    cached per (curve, dps) and shared by every delta on the default grid.
    """
    if curve == "wang-lower":
        cache = _FIG3_CACHES.setdefault((curve, dps), {})
        return integer_orders_eps(lambda a: wang_lower_rdp(a, SIGMA, Q, dps=dps + 5),
                                  range(2, 33), T, delta, dps=dps, cache=cache)
    fn = FIG3_CURVES[curve]
    cache = (_FIG3_CACHES.setdefault((curve, dps), {}) if orders is None else {})
    return eps_over_grid(lambda a: fn(a, dps + 5), ALPHAS_FIG3 if orders is None else orders,
                         T, delta, conversion=conversion, dps=dps, cache=cache)


@functools.cache
def figure_3_table(deltas: Sequence[float] = DELTAS_FIG3, ms: Sequence[int] = (3, 4, 5),
                   T: Number = T_EPOCHS_250, dps: int = 15) -> dict[str, list[tuple[mpf, float]]]:
    """eps(delta) after T steps at sigma = 6, q = 0.0024 (Figure 3): Thm 3.4 for each m, Wang
    upper on the 500-order grid, Wang lower on the integers 2..32; entries (eps, order)."""
    keys = [f"thm3.4-m{m}" for m in ms] + ["wang-upper", "wang-lower"]
    return {k: [figure_3_epsilon(k, d, T, dps=dps) for d in deltas] for k in keys}


@functools.cache
def figure_2_curves(alphas: Sequence[float] = ALPHAS_FIG2, dps: int = 20) -> dict[str, list]:
    """One-step curves of Figure 2: Thm 3.4 (m = 3, 4, 5), Wang upper, Wang lower (integers)."""
    curves: dict[str, list] = {
        f"Thm 3.4, m={m}": [thm_3_4(a, SIGMA, Q, m, dps=dps) for a in alphas] for m in (3, 4, 5)}
    curves["Wang et al. upper"] = [wang_upper_rdp(a, SIGMA, Q, dps=dps) for a in alphas]
    top = int(alphas[-1])
    curves["Wang et al. lower"] = [(a, wang_lower_rdp(a, SIGMA, Q, dps=dps))
                                   for a in range(2, top + 1)]
    return curves
