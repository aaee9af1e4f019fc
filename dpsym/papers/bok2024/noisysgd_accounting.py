"""Accounting for NoisySGD (App. D.5): Prop. D.4 (the PRV of C_p(G(mu))), and certified
(eps, delta) and f-DP intervals for the bounds of Thms 4.8-4.10.

**Prop. D.4.**  Y with X = -Y is a privacy-loss random variable (PRV) pair of C_p(G(mu)):

    F_Y(t) = p Phi(eps+/mu - mu/2) + (1 - p) Phi(eps+/mu + mu/2)    for t > 0,
    F_Y(t) = Phi(-eps-/mu - mu/2)                                     for t <= 0,

eps+- = log((p - 1 + e^{+-t})/p) (:func:`prop_d_4`).  Two independent checks:

* the PRV condition dY = e^t dX, i.e. f_Y(t) = e^t f_Y(-t), by sympy, and the atom of Y at 0,
  of mass (1 - p)(Phi(mu/2) - Phi(-mu/2)) (:func:`prop_d_4_symbolic`);
* the privacy curve delta(eps) = E[(1 - e^{eps - Y})_+] = int_eps^oo e^{eps - y} P(Y > y) dy
  from F_Y by quadrature (:func:`prop_d_4_delta`), against sup_x (1 - e^eps x - C_p(G(mu))(x))
  from the closed-form tradeoff curve (:func:`dpsym.fdp.duality.delta_of_tradeoff`).

As printed F_Y(0) = Phi(-mu/2) = P(Y < 0): the atom is left out at t = 0, so the printed
function is the left-continuous version of the CDF there (a convention, not an error: the law
is the same).

**Composition.**  A bound f = G(mu_0) (x) (x)_j C_p(G(mu_j))^{(x) k_j} (:class:`NoisySGDTradeoff`)
has the PRV S + N0, S a sum of independent copies of Prop. D.4's Y and N0 ~ N(mu_0^2/2, mu_0^2)
the PRV of G(mu_0).  The functions here return certified intervals (lower, upper) for its
delta(eps), its eps(delta) and its tradeoff curve, from dpsym's certified PLD engine
(:mod:`dpsym.pld`: delta-dominating upper and lower grid laws, exact integer convolution,
every error term inside the interval); :func:`noisysgd_scenario` is the one adapter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import require
from dpsym.fdp.clt import clt_K_symbolic
from dpsym.fdp.duality import tradeoff_interval
from dpsym.fdp.prv import CpGaussianPRV
from dpsym.fdp.symbolic import Derivation, std_normal_cdf
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, Phi, precision, round_up, to_mpf
from dpsym.papers.bok2024.noisysgd import NoisySGDTradeoff
from dpsym.papers.registry import cite
from dpsym.pld import Factor, GaussianPair, certify_delta, certify_epsilon

__all__ = [
    "CLT_SETTINGS",
    "FIGURE_10",
    "THM_4_8_CURVE",
    "BestTau",
    "CLTCheck",
    "CLTLimits",
    "ConvergenceRow",
    "Interval",
    "best_tau",
    "clt_check",
    "convergence_rows",
    "figure_10_certified",
    "figure_10_values",
    "footnote_13_clt",
    "noisysgd_delta_interval",
    "noisysgd_delta_profile",
    "noisysgd_epsilon_interval",
    "noisysgd_scenario",
    "noisysgd_tradeoff_interval",
    "prop_d_4",
    "prop_d_4_atom",
    "prop_d_4_delta",
    "prop_d_4_symbolic",
    "thm_4_8_certified_curves",
    "thm_4_8_regime",
    "width_sweep",
]

PAPER = "bok2024"


def _ref(where: str) -> str:
    return cite(PAPER, where)


# --- Proposition D.4 -------------------------------------------------------------------------


def _cdf(tv: mpf, pv: mpf, mv: mpf) -> mpf:
    if tv == mpmath.inf:
        return mpf(1)
    if tv == mpmath.ninf:
        return mpf(0)
    if tv > 0:
        ep = mpmath.log((pv - 1 + mpmath.exp(tv)) / pv)
        return pv * Phi(ep / mv - mv / 2) + (1 - pv) * Phi(ep / mv + mv / 2)
    em = mpmath.log((pv - 1 + mpmath.exp(-tv)) / pv)
    return Phi(-em / mv - mv / 2)


def _pm(p: Number, mu: Number, ref: str) -> tuple[mpf, mpf]:
    pv, mv = to_mpf(p, "p", ref), to_mpf(mu, "mu", ref)
    require(0 < pv <= 1, "p", p, "0 < p <= 1", ref)
    require(mv > 0, "mu", mu, "mu > 0", ref)
    return pv, mv


def prop_d_4(t: Number, p: Number, mu: Number, dps: int = DEFAULT_DPS) -> mpf:
    """F_Y(t) of Prop. D.4 as printed; see the module docstring.

    >>> from dpsym.numerics import nstr
    >>> nstr(prop_d_4(0, "0.25", "2.5"), 12), nstr(prop_d_4("0.5", "0.25", "2.5"), 12)
    ('0.105649773667', '0.778261124991')
    """
    ref = _ref("Prop. D.4")
    with precision(dps + GUARD_DPS):
        tv = to_mpf(t, "t", ref, allow_inf=True)
        out = _cdf(tv, *_pm(p, mu, ref))
    with precision(dps):
        return +out


def prop_d_4_atom(p: Number, mu: Number, dps: int = DEFAULT_DPS) -> mpf:
    """The jump of the printed F_Y at 0, lim_{t->0+} F_Y(t) - F_Y(0): Y's atom at 0."""
    ref = _ref("Prop. D.4")
    with precision(dps + GUARD_DPS):
        pv, mv = _pm(p, mu, ref)
        right = pv * Phi(-mv / 2) + (1 - pv) * Phi(mv / 2)   # eps+ -> 0 as t -> 0+
        out = right - _cdf(mpf(0), pv, mv)
    with precision(dps):
        return +out


def prop_d_4_delta(eps: Number, p: Number, mu: Number, dps: int = DEFAULT_DPS) -> mpf:
    """delta(eps) = E[(1 - e^{eps - Y})_+] = int_eps^oo e^{eps - y} (1 - F_Y(y)) dy from the
    printed F_Y, by tanh-sinh quadrature split at 0 (where F_Y jumps).  The tail 1 - F_Y(y)
    for y > 0 is computed as p Phi(mu/2 - a) + (1 - p) Phi(-a - mu/2), a = eps+/mu, without
    cancellation."""
    ref = _ref("Prop. D.4")
    with precision(dps + GUARD_DPS):
        e = to_mpf(eps, "eps", ref)
        pv, mv = _pm(p, mu, ref)

        def tail(y: mpf) -> mpf:
            if y > 0:
                a = mpmath.log((pv - 1 + mpmath.exp(y)) / pv) / mv
                return pv * Phi(mv / 2 - a) + (1 - pv) * Phi(-a - mv / 2)
            return 1 - _cdf(y, pv, mv)

        pts = [e, mpf(0), mpmath.inf] if e < 0 else [e, mpmath.inf]
        out = mpmath.quad(lambda y: mpmath.exp(e - y) * tail(y), pts)
    with precision(dps):
        return +out


@cache
def prop_d_4_symbolic() -> Derivation:
    """Prop. D.4's PRV condition by sympy: f_Y(t) / f_Y(-t) for t > 0, from the two printed
    branches of F_Y, simplifies to e^t (``derived`` vs ``target``); the notes give the jump at
    0 and the limits F_Y(-oo) = 0, F_Y(oo) = 1."""
    t = sp.Symbol("t", positive=True)
    p = sp.Symbol("p", positive=True)
    mu = sp.Symbol("mu", positive=True)
    Phi_ = std_normal_cdf
    ep = sp.log((p - 1 + sp.exp(t)) / p)
    pos = p * Phi_(ep / mu - mu / 2) + (1 - p) * Phi_(ep / mu + mu / 2)
    s = sp.Symbol("s", negative=True)
    neg = Phi_(-sp.log((p - 1 + sp.exp(-s)) / p) / mu - mu / 2)
    f_pos = sp.diff(pos, t)
    f_neg_at = sp.diff(neg, s).subs(s, -t)
    ratio = sp.simplify(sp.expand(sp.simplify(f_pos / f_neg_at)))
    jump = sp.simplify(sp.limit(pos, t, 0, "+") - neg.subs(s, 0))
    top = sp.limit(pos, t, sp.oo)
    bottom = sp.limit(neg, s, -sp.oo)
    return Derivation(ratio, sp.exp(t), sp.simplify(ratio - sp.exp(t)),
                      f"jump at 0 = {jump}; F_Y(oo) = {top}; F_Y(-oo) = {bottom}")


# --- Composition: dpsym's certified PLD engine (:mod:`dpsym.pld`) -----------------------------


@dataclass(frozen=True)
class Interval:
    """A certified interval (lower, upper) and the finest grid spacing that produced it."""

    lower: float
    upper: float
    h: float
    points: int = 0
    cpu_seconds: float = 0.0

    @property
    def width(self) -> float:
        return self.upper - self.lower


def _float_up(x: mpf) -> float:
    v = float(x)
    return v if v >= x else float(np.nextafter(v, np.inf))


def _float_down(x: mpf) -> float:
    v = float(x)
    return v if v <= x else float(np.nextafter(v, -np.inf))


def _key(f: NoisySGDTradeoff) -> tuple[float, float, tuple[tuple[float, int], ...]]:
    """p, the GDP parameter and the factors' mu, rounded *up* to binary doubles: a larger p or
    mu is a weaker tradeoff function (more privacy loss), so the bound stays a bound."""
    return (_float_up(f.p), _float_up(f.gdp),
            tuple((_float_up(m), k) for m, k in f.factors))


def noisysgd_scenario(f: NoisySGDTradeoff) -> list[list]:
    """The adapter to :mod:`dpsym.pld`: ``f`` = G(mu_0) (x) (x)_j C_p(G(mu_j))^{(x) k_j} as one
    scenario of :func:`dpsym.pld.certify_epsilon`, a factor (:class:`dpsym.fdp.prv.CpGaussianPRV`
    = Prop. D.4's PRV, Bok et al.'s C_p) per block and a :class:`dpsym.pld.GaussianPair` for
    G(mu_0), with every parameter rounded up (:func:`_key`).  Every factor is symmetric, so one
    scenario (one direction) gives the whole privacy curve."""
    p, mu0, factors = _key(f)
    return _scenario(p, mu0, factors)


def _scenario(p: float, mu0: float, factors: tuple[tuple[float, int], ...]) -> list[list]:
    parts = [Factor(CpGaussianPRV(Fraction(p), Fraction(m)), k) for m, k in factors]
    if mu0 > 0:
        parts.append(Factor(GaussianPair(Fraction(mu0)), 1))
    return [parts]


@lru_cache(maxsize=64)
def _certified(p: float, mu0: float, factors: tuple[tuple[float, int], ...], target: str,
               value: str, width: float):
    scen = _scenario(p, mu0, factors)
    if target == "epsilon":
        return certify_epsilon(scen, value, width=width)
    return certify_delta(scen, value, rel_width=width)


def _interval(iv) -> Interval:
    return Interval(_float_down(iv.lower), _float_up(iv.upper),
                    float(min(c.h_lower for c in iv.chains)),
                    max(c.points for c in iv.chains), float(iv.seconds))


def noisysgd_delta_interval(f: NoisySGDTradeoff, eps: Number, rel_width: float = 1e-2
                            ) -> Interval:
    """Certified (lower, upper) for delta(eps) of the composed bound ``f``, of width at most
    ``rel_width`` times its upper end (:func:`dpsym.pld.certify_delta`)."""
    return _interval(_certified(*_key(f), "delta", str(eps), float(rel_width)))


def noisysgd_epsilon_interval(f: NoisySGDTradeoff, delta: Number, width: float = 1e-2
                              ) -> Interval:
    """Certified (lower, upper) for the smallest eps with delta(eps) <= delta, of width at most
    ``width`` (:func:`dpsym.pld.certify_epsilon`: the grid is refined until it is)."""
    ref = _ref("App. D.5")
    d = to_mpf(delta, "delta", ref)
    require(0 < d < 1, "delta", delta, "0 < delta < 1", ref)
    require(width > 0, "width", width, "width > 0", ref)
    return _interval(_certified(*_key(f), "epsilon", str(delta), float(width)))


def width_sweep(f: NoisySGDTradeoff, delta: Number = "1e-5",
                widths: Sequence[float] = (1e-1, 1e-2, 1e-3, 1e-4)) -> list[tuple[float, Interval]]:
    """The certified eps(delta) of ``f`` at each target width: the interval, the finest grid
    spacing and the number of grid points the engine needed (and its CPU time, which the
    chapters do not print).  The interval width shrinks roughly like h^2."""
    return [(w, noisysgd_epsilon_interval(f, delta, width=w)) for w in widths]


def _bands(f: NoisySGDTradeoff, eps: Sequence[float], rel_width: float
           ) -> tuple[np.ndarray, np.ndarray]:
    """delta bands at every eps from one composition, certified at the largest eps (so the
    composed window reaches beyond every eps asked for), or at eps(1e-12) if that is smaller
    (a relative width is out of reach where delta underflows; the bands beyond stay certified,
    only wider)."""
    es = [Fraction(float(e)) for e in eps]
    top = min(float(max(es)), noisysgd_epsilon_interval(f, "1e-12", width=5e-2).upper)
    iv = _certified(*_key(f), "delta", str(top), float(rel_width))
    b = iv.delta_bands(es)
    return (np.array([max(_float_down(lo), 0.0) for lo, _ in b]),
            np.array([min(_float_up(hi), 1.0) for _, hi in b]))


def noisysgd_delta_profile(f: NoisySGDTradeoff, eps: Sequence[float], rel_width: float = 1e-2
                           ) -> tuple[np.ndarray, np.ndarray]:
    """Certified (lower, upper) of delta(eps) of the composed bound at every eps of ``eps``
    (one composition, many evaluations): the privacy profile."""
    return _bands(f, eps, rel_width)


def noisysgd_tradeoff_interval(f: NoisySGDTradeoff, x: Sequence[float],
                               eps_max: float | None = None, points: int = 400,
                               rel_width: float = 1e-1) -> tuple[np.ndarray, np.ndarray]:
    """Certified (lower, upper) tradeoff curves of the composed bound ``f`` at the type-I errors
    ``x`` (every factor is symmetric, so the composition is), from delta intervals on an eps
    grid [0, eps_max] (:func:`dpsym.fdp.duality.tradeoff_interval`); eps_max defaults to the
    upper end of eps(1e-12).  The delta bands are certified to a relative width ``rel_width``
    at eps_max (the smallest delta, so the hardest point); on Table 4's setting the default
    0.1 gives curves within 1.5e-3 of each other at every x, in ~4 s."""
    if eps_max is None:   # the same query as _bands' (cached): one composition fewer
        eps_max = max(1.0, noisysgd_epsilon_interval(f, "1e-12", width=5e-2).upper)
    grid = np.linspace(0.0, eps_max, points)
    lo, hi = _bands(f, grid, rel_width)
    return tradeoff_interval(grid, lo, hi, x)


# --- Footnote 13: the one-sided G(mu)_p is not C_p(G(mu)), even in the CLT limit ------------


@dataclass(frozen=True)
class CLTLimits:
    """Footnote 13 in numbers: the squared CLT limits over p0^2 of the t-fold compositions of
    the one-sided G(mu)_p = T(N(0,1), p N(mu,1) + (1-p) N(0,1)) (``one_sided``, derived) and of
    C_p(G(mu)) (``symmetrised`` = 2 K(mu), Lemma A.5), and the series of their difference."""

    one_sided: sp.Expr
    symmetrised: sp.Expr
    difference_series: sp.Expr
    derivation_notes: str


@cache
def footnote_13_clt(order: int = 5) -> CLTLimits:
    """Footnote 13 by sympy: the CLT of the one-sided pair (P, Q) = (N(0,1), p N(mu,1) + (1-p)
    N(0,1)) from the moments of its log-likelihood ratio, against Lemma A.5's C_p(G(mu)).

    With W = e^{mu x - mu^2/2} (so E_P W^k = e^{k(k-1) mu^2/2}, by sympy.stats) the loss
    log(dQ/dP) = log(1 + p(W - 1)) = p(W - 1) - p^2 (W - 1)^2/2 + O(p^3), so per copy
    KL(P||Q) = -E_P[loss] and Var_P[loss] are p^2 (e^{mu^2} - 1)/2 and p^2 (e^{mu^2} - 1) to
    leading order.  The CLT for t copies with p sqrt t -> p0 (DRS22, Thm 5: mu = 2 kappa_1 /
    sqrt(kappa_2)) gives mu^2 = p0^2 (e^{mu^2} - 1), the [BDLS20] formula; C_p(G(mu)) gives
    2 p0^2 K(mu).  They differ at order mu^3: 2K - (e^{mu^2} - 1) = sqrt(2/pi) mu^3 + ...
    """
    import sympy.stats as sps

    mu, p = sp.symbols("mu p", positive=True)
    k = sp.Symbol("k", positive=True)
    a = sp.Symbol("a", real=True)
    w = sp.Symbol("W", positive=True)
    # E_P W^k = e^{-k mu^2/2} E e^{k mu x}, x ~ N(0, 1): the moment generating function by
    # sympy.stats, then substituted.
    mgf = sp.simplify(sps.E(sp.exp(a * sps.Normal("x", 0, 1))))
    moment = sp.exp(-k * mu**2 / 2) * mgf.subs(a, k * mu)

    def E(poly: sp.Expr) -> sp.Expr:
        P = sp.Poly(sp.expand(poly), w)
        return sp.expand(sum(c * (moment.subs(k, deg[0]) if deg[0] else 1)
                             for deg, c in P.terms()))

    loss = p * (w - 1) - p**2 * (w - 1) ** 2 / 2          # log(1 + p(W - 1)) to O(p^3)
    kl = sp.expand(-E(loss))
    var = sp.expand(E(loss**2) - E(loss) ** 2)
    kl2 = sp.simplify(kl.coeff(p, 2))                    # leading order p^2
    var2 = sp.simplify(var.coeff(p, 2))
    one_sided = sp.simplify((2 * kl2) ** 2 / var2)       # (2 kappa_1)^2 / kappa_2 per p0^2
    Kexpr = clt_K_symbolic()
    (m_,) = Kexpr.free_symbols
    sym = 2 * Kexpr.subs(m_, mu)
    diff = sp.series(sym - one_sided, mu, 0, order + 1).removeO()
    return CLTLimits(one_sided, sym, sp.simplify(diff),
                     f"KL per copy ~ p^2 ({kl2}), Var per copy ~ p^2 ({var2})")


# --- Evidence that needs the composition --------------------------------------------------


@dataclass(frozen=True)
class BestTau:
    """Thm 4.9 (or 4.10) at the tau that certifies the smallest eps among those tried: every
    tau gives a valid bound, so the minimum of the upper ends is a certified eps."""

    tau: int
    epsilon: Interval
    tried: tuple[tuple[int, float], ...]   # (tau, upper eps)
    clt_tau: int


def best_tau(bound_at: object, t: int, clt_k: int, delta: Number = "1e-5",
             width: float = 1e-2, points: int = 7) -> BestTau:
    """Minimise the certified eps(delta) of ``bound_at(tau)`` over tau in [tau_min, t] on a
    geometric grid of t - tau around the CLT choice ``clt_k`` (Props C.14, C.15), then on
    the neighbours of the best grid point.  ``bound_at`` returns a :class:`NoisySGDTradeoff`
    or raises ValueError for an inadmissible tau."""
    kmax = t
    ks = {max(0, min(kmax, round(clt_k * 2.0 ** (j / 2)))) for j in range(-points, points + 1)}
    tried: dict[int, Interval] = {}

    def at(k: int) -> Interval | None:
        tau = t - k
        if tau in tried:
            return tried[tau]
        try:
            f = bound_at(tau)
        except ValueError:
            return None
        tried[tau] = noisysgd_epsilon_interval(f, delta, width=width)
        return tried[tau]

    for k in sorted(ks):
        at(k)
    best = min(tried, key=lambda tau: tried[tau].upper)
    for tau in (best - 1, best + 1):
        if 0 <= t - tau <= kmax:
            at(t - tau)
    best = min(tried, key=lambda tau: tried[tau].upper)
    return BestTau(best, tried[best], tuple(sorted((k, v.upper) for k, v in tried.items())),
                   t - clt_k)


@dataclass(frozen=True)
class CLTCheck:
    """Lemma A.5's CLT against the certified composition of C_p(G(mu))^{(x) t}: the CLT mu and
    its eps(delta) (Lemma A.3), the certified interval, and where the CLT eps lies."""

    p: mpf
    mu: mpf
    t: int
    clt_mu: mpf
    clt_epsilon: mpf
    certified: Interval

    @property
    def position(self) -> str:
        """'below' (the CLT is optimistic: it claims less privacy loss than certified),
        'inside' or 'above' (pessimistic)."""
        e = float(self.clt_epsilon)
        return "below" if e < self.certified.lower else (
            "above" if e > self.certified.upper else "inside")


def clt_check(p: Number, mu: Number, t: int, delta: Number = "1e-5", width: float = 1e-2,
              dps: int = 30) -> CLTCheck:
    """The CLT (Lemma A.5) and the certified composition for C_p(G(mu))^{(x) t} (Thm 4.8's
    form, with L/(b sigma) = mu and b/n = p)."""
    from dpsym.fdp import clt_mu, gdp_epsilon

    with precision(dps + GUARD_DPS):
        pv, mv = to_mpf(p, "p"), to_mpf(mu, "mu")
    # rounded up at dps, as every NoisySGDTradeoff is
    f = NoisySGDTradeoff(round_up(pv, dps), mpf(0), ((round_up(mv, dps), t),), "C_p(G(mu))^t")
    m = clt_mu(p, mu, t, dps=dps)
    return CLTCheck(f.p, f.factors[0][0], t, m, gdp_epsilon(m, delta, dps=dps),
                    noisysgd_epsilon_interval(f, delta, width=width))


def thm_4_8_regime(mu: Number = "0.5", kappa: Number = 2, ratios: Sequence[int] = (5, 10, 20, 40),
                   fixed_p: Number | None = None, delta: Number = "1e-5", width: float = 1e-2
                   ) -> list[CLTCheck]:
    """Text after Thm 4.10: Thm 4.8 stays bounded for t = O(n^2/b^2) (the CLT limit) but is
    vacuous as t -> oo at fixed b/n.  With ``fixed_p`` None: p = 1/r and t = kappa r^2 for r in
    ``ratios`` (the certified eps approach the CLT's); otherwise p = ``fixed_p`` and t =
    kappa r^2 (eps grows without bound)."""
    out = []
    for r in ratios:
        p = Fraction(1, r) if fixed_p is None else Fraction(str(fixed_p))
        t = round(Fraction(str(kappa)) * r * r)
        out.append(clt_check(p, mu, t, delta, width))
    return out


@dataclass(frozen=True)
class ConvergenceRow:
    """Certified eps(delta) after t steps: Thm 4.8 (composition) and a convergent bound (Thm 4.9
    or 4.10 at a fixed t - tau)."""

    t: int
    composition: Interval
    convergent: Interval


def convergence_rows(composition_at: object, convergent_at: object, ts: Sequence[int],
                     delta: Number = "1e-5", width: float = 1e-2) -> list[ConvergenceRow]:
    """Text after Thm 4.10 ("both theorems give convergent privacy by taking t - tau constant
    as t -> oo"): for each t, the certified eps of ``composition_at(t)`` (Thm 4.8) and of
    ``convergent_at(t)`` (Thm 4.9 or 4.10 at a fixed t - tau), both NoisySGDTradeoff."""
    return [ConvergenceRow(t, noisysgd_epsilon_interval(composition_at(t), delta, width=width),
                           noisysgd_epsilon_interval(convergent_at(t), delta, width=width))
            for t in ts]


# --- Figure 10 and the CLT comparison: the data the figures draw ---------------------------

#: Figure 10 (App. D.3.3): the panels' b/n (rows) and L/b (columns) as labelled in the paper,
#: our bound (Thm 4.10, CLT, best t - tau in {100, ..., 4900}, noise split alpha^2 = 10) for
#: eta in {0.2, 0.1, 0.05}, the composition bound (Thm 4.8, CLT) for t in {5000, 20000, 80000};
#: D = 1, sigma = 3.  ``certified``: the panels (row, column) where dpsym adds the certified
#: curves of Thm 4.10 (eta = 0.1, at the CLT's best t - tau) and of Thm 4.8 (t = 5000).
FIGURE_10 = {"rows": ("0.0025", "0.005", "0.01", "0.02", "0.04"),
             "cols": ("0.125", "0.25", "0.5", "1", "2"),
             "etas": ("0.2", "0.1", "0.05"), "ts": (5000, 20000, 80000),
             "k_grid": tuple(range(100, 5000, 100)), "alpha_sq": 10, "D": 1, "sigma": 3,
             "certified": ((2, 2), (3, 3), (4, 1)), "certified_eta": "0.1",
             "certified_t": 5000}

#: Settings (p, L/(b sigma), t) of the CLT-vs-certified comparison: few expected hits of i*
#: (p t = 2, 5), where Lemma A.5's CLT is optimistic in the tail, and Table 4's MNIST setting
#: at E = 50 (p t = 50), where it is pessimistic.
CLT_SETTINGS = (("0.1", "1", 20), ("0.05", "0.5", 100), ("0.025", "0.6666666666666666667", 2000))


def figure_10_values(b_over_n: str, L_over_b: str, eta: str | None = None, t: int | None = None,
                     dps: int = 20) -> dict[str, dict]:
    """The GDP parameters one panel of Figure 10 draws, by the CLT (Lemma A.5) as the paper
    does: for each eta the best over t - tau in the grid of Thm 4.10 with alpha^2 = 10 (the
    noise split of App. D.3.3), with that t - tau; for each t Thm 4.8's CLT mu.  (b = 1,
    n = 1/(b/n), L = L/b: the bounds depend on b/n, L/b and sigma only.)"""
    from dpsym.fdp import clt_mu
    from dpsym.papers.bok2024.noisysgd import thm_4_10

    f = FIGURE_10
    with precision(dps + GUARD_DPS):  # b/n and L/b are decimal strings: convert at our precision
        n = 1 / mpf(b_over_n)
        ratio = mpf(L_over_b) / f["sigma"]
    ours = {}
    for e in (f["etas"] if eta is None else (eta,)):
        best = None
        for k in f["k_grid"]:
            mu = thm_4_10(L_over_b, 1, n, f["sigma"], e, f["D"], t=k, tau=0,
                          alpha_sq=f["alpha_sq"], dps=dps).clt_mu(dps)
            if best is None or mu < best[0]:
                best = (mu, k)
        ours[e] = best
    comp = {tt: clt_mu(b_over_n, ratio, tt, dps=dps)
            for tt in (f["ts"] if t is None else (t,))}
    return {"ours": ours, "composition": comp}


@lru_cache(maxsize=8)
def figure_10_certified(b_over_n: str, L_over_b: str, points: int = 101
                        ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Certified (lower, upper) tradeoff curves at ``points`` type-I errors in [0, 1] for one
    panel of Figure 10: Thm 4.10 at eta = 0.1 and the t - tau the CLT picks (the bound does
    not depend on t once t - tau is fixed), and Thm 4.8 at t = 5000; with the largest
    distance from the panel's CLT curves of the same bounds."""
    from dpsym.fdp import Gaussian
    from dpsym.papers.bok2024.noisysgd import thm_4_8, thm_4_10

    f = FIGURE_10
    xs = np.linspace(0, 1, points)
    with precision(DEFAULT_DPS):
        n = 1 / mpf(b_over_n)
    e, tt = f["certified_eta"], f["certified_t"]
    vals = figure_10_values(b_over_n, L_over_b, eta=e, t=tt, dps=15)
    mu_ours, k = vals["ours"][e]
    ours = thm_4_10(L_over_b, 1, n, f["sigma"], e, f["D"], t=k, tau=0, alpha_sq=f["alpha_sq"])
    comp = thm_4_8(L_over_b, 1, n, f["sigma"], tt)
    out = {"x": (xs, xs), "ours": noisysgd_tradeoff_interval(ours, xs),
           "composition": noisysgd_tradeoff_interval(comp, xs)}
    for key, mu in (("ours", mu_ours), ("composition", vals["composition"][tt])):
        g = Gaussian(mu).vectorized(xs)
        lo, hi = out[key]
        out[key + "_clt_gap"] = (np.maximum(lo - g, 0) + np.maximum(g - hi, 0), g)
    return out


#: Thm 4.8's certified curve: Table 4's NoisySGD setting (p = 1/40, L/(b sigma) = 2/3) at
#: E = 50, 100, 200 epochs (t = 40 E).
THM_4_8_CURVE = {"p": "0.025", "mu": "0.6666666666666666667", "epochs": (50, 100, 200), "l": 40}


@lru_cache(maxsize=4)
def thm_4_8_certified_curves(points: int = 121) -> dict[int, dict[str, np.ndarray]]:
    """For each E of :data:`THM_4_8_CURVE`: the type-I errors, the certified lower and upper
    tradeoff curves of C_{1/40}(G(2/3))^{(x) 40E} and the CLT curve G(mu_CLT) (Lemma A.5, the
    mu of Table 3)."""
    from dpsym.fdp import Gaussian, clt_mu

    s = THM_4_8_CURVE
    xs = np.concatenate([np.linspace(0, 1, points), np.geomspace(1e-6, 1e-2, 25)])
    xs = np.unique(xs)
    out = {}
    for E in s["epochs"]:
        t = s["l"] * E
        with precision(DEFAULT_DPS + GUARD_DPS):
            pv, mv = to_mpf(s["p"], "p"), to_mpf(s["mu"], "mu")
        f = NoisySGDTradeoff(round_up(pv, DEFAULT_DPS), mpf(0), ((round_up(mv, DEFAULT_DPS), t),),
                             f"Thm 4.8, E = {E}")
        lo, hi = noisysgd_tradeoff_interval(f, xs, rel_width=3e-2)
        mu = clt_mu(s["p"], s["mu"], t, dps=20)
        out[E] = {"x": xs, "lower": lo, "upper": hi, "clt": Gaussian(mu).vectorized(xs)}
    return out
