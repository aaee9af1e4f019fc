"""The adjacency-direction gap in Liang et al. 2025, eqs. (10), (12), (14), with evidence.

Definition 2.3 asks ``D_alpha(P_M(D) || P_M(D')) <= eps`` for *every* ordered pair of
adjacent datasets; adjacency is "adding or removing one data point" (Sec. 2.1).  The proof
of Lemma 3.2 (App. B.1, eq. (38)) takes ``D' = D u {x}``, writes the update on D' as the
mixture ``(1 - q) psi(nu) + q psi''(nu)`` and applies convexity of ``D_alpha`` in its
*second* argument (Lemma A.9).  That bounds ``D_alpha(P_D || P_{D u {x}})`` only.  In the
other order the mixture is the first argument, where no such convexity holds, and the
bound is false.

Counterexample (one step, d = 1, T = 1): every loss of D is identically 0, and the added
point has ``l_x(theta) = -C theta`` (gradient norm exactly C, L-smooth for every L > 0).
Then ``theta_1 = theta_0 + eta zeta`` under D and, under D' = D u {x}, ``theta_1 = theta_0
+ eta zeta + eta C/b`` when x is sampled (probability q = b/n, or b/(n+1) with n+1 points),
so in units of the noise ``eta sigma`` the shift is ``mu = C/(b sigma)`` and

    D_alpha(P_D' || P_D) = D_alpha((1-q) N(0,1) + q N(mu,1) || N(0,1))      (mixture first)
    D_alpha(P_D || P_D') = D_alpha(N(0,1) || (1-q) N(0,1) + q N(mu,1))      (mixture second)

while (12) at T = 1 claims ``2 alpha C^2/(beta n b sigma^2) = 2 alpha q mu^2 / beta`` for
every ``beta in (0, 1)``.  The mixture-first value is the Poisson-subsampled Gaussian RDP
of Mironov, Talwar & Zhang 2019 at noise multiplier ``1/mu`` (exact binomial sum at
integer alpha, :func:`dpsym.rdp.subsampled_gaussian.log_a_int`); the mixture-second value
is :func:`dpsym.rdp.gaussian_mixture.renyi_gaussian_vs_mixture` (quadrature).  At
``alpha = 10, q = 0.01, mu = 2`` the first is 14.88 against a claim of 0.8 (as beta -> 1),
the second 0.0036.  The same instance is a counterexample to Lemma 3.2's (10) (z = 0,
mu = nu = delta_theta0, with the noise share beta) and to (14) (a domain K large enough that
the projection is inactive changes nothing at T = 1 but the D-term; see
:func:`eq_14_counterexample`).

The "n^2" variants (11), (13), (15) rest on Lemma A.12 (MTZ19, Thm 11), whose bound
``2 alpha q^2/s^2`` holds in both orders inside ``alpha <= alpha*(q, s)``
(:func:`lemma_a12_both_orders`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, Phi, precision, to_mpf
from dpsym.papers.liang2025._common import PAPER, S, check
from dpsym.papers.liang2025.closed_forms import rho_dc, rho_gc
from dpsym.papers.liang2025.privacy import lem_a_12_expr, thm_3_3
from dpsym.papers.registry import cite
from dpsym.rdp.gaussian_mixture import renyi_gaussian_vs_mixture, sgm_alpha_star
from dpsym.rdp.subsampled_gaussian import log_a_frac, log_a_int

__all__ = [
    "Counterexample",
    "eq_12_counterexample",
    "eq_14_counterexample",
    "eq_14_search",
    "lemma_a12_both_orders",
    "mixture_first",
    "mixture_second",
    "projected_mixture_first",
]

REF = cite(PAPER, "Thm 3.3, eq. (12) (adjacency order)")


@functools.cache
def mixture_first(alpha: Number, q: Number, mu: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """``D_alpha((1 - q) N(0,1) + q N(mu,1) || N(0,1))``, unrounded (a divergence, not a bound).

    Mironov, Talwar & Zhang 2019's A_alpha at noise multiplier 1/mu: a binomial sum of
    non-negative terms at integer alpha, quadrature otherwise.
    """
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", REF)
        require(a > 1, "alpha", alpha, "alpha > 1", REF)
        qv, m = to_mpf(q, "q", REF), to_mpf(mu, "mu", REF)
        require(0 < qv < 1, "q", q, "0 < q < 1", REF)
        require(m > 0, "mu", mu, "mu > 0", REF)
        if a == mpmath.floor(a):
            log_a, _ = log_a_int(qv, 1 / m, int(a))
        else:
            log_a, _ = log_a_frac(qv, 1 / m, a)
        out = log_a / (a - 1)
    with precision(dps):
        return +out


@functools.cache
def mixture_second(alpha: Number, q: Number, mu: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """``D_alpha(N(0,1) || (1 - q) N(0,1) + q N(mu,1))`` (quadrature), unrounded."""
    with precision(dps + GUARD_DPS):
        m = to_mpf(mu, "mu", REF)
        require(m > 0, "mu", mu, "mu > 0", REF)
        s = 1 / m
    return renyi_gaussian_vs_mixture(alpha, q, s, dps=dps)


@dataclass(frozen=True)
class Counterexample:
    """One-step instance: ``claimed`` is the paper's bound (at the given beta, or its
    infimum over beta if beta is None); ``first`` and ``second`` the exact divergences with
    the mixture first (D' = D u {x} first: the order the proof omits) and second (the order
    it proves), at sampling rate ``q``; ``ratio = first / claimed``; ``beta_threshold`` the
    beta above which the claim fails (claimed/beta < first iff beta > claim(beta=1)/first)."""

    alpha: mpf
    q: mpf
    mu: mpf
    claimed: mpf
    first: mpf
    second: mpf
    ratio: mpf
    beta_threshold: mpf


@functools.cache
def eq_12_counterexample(*, alpha: Number = 10, n: int = 100, b: int = 1, C: Number = 1,
                         sigma: Number = "0.5", beta: Number | None = None,
                         q_reading: str = "n+1", dps: int = DEFAULT_DPS) -> Counterexample:
    """The one-step counterexample to (12) (Thm 3.3, T = 1) in the paper's symbols.

    ``q_reading``: the sampling rate of the added point, ``"n"`` (q = b/n, as in the
    proof's eq. (38)) or ``"n+1"`` (q = b/(n+1), Algorithm 1 run on the n+1 points of D';
    smaller, so the divergence is smaller and the counterexample more conservative).  The
    claim is evaluated with n = |D| (the larger of the two readings of (12)).

    >>> from dpsym.numerics import nstr
    >>> c = eq_12_counterexample()
    >>> nstr(c.claimed, 6), nstr(c.first, 6), nstr(c.second, 6)
    ('0.8', '14.8721', '0.0035514')
    """
    with precision(dps + GUARD_DPS):
        p = check(REF, alpha=alpha, n=n, b=b, C=C, sigma=sigma)
        require(q_reading in ("n", "n+1"), "q_reading", q_reading, "'n' or 'n+1'", REF)
        q = mpf(p["b"]) / (p["n"] + (1 if q_reading == "n+1" else 0))
        require(q < 1, "b", b, "b < n (a sampling probability below 1)", REF)
        mu = p["C"] / (p["b"] * p["sigma"])
    # The infimum of (12) over beta (beta -> 1) is alpha rho_GC(T) (closed_forms.rho_gc);
    # (12) at beta is that divided by beta.
    inf_claim = rho_gc(T=1, n=n, b=b, C=C, sigma=sigma, dps=dps + GUARD_DPS)
    first = mixture_first(p["alpha"], q, mu, dps=dps + GUARD_DPS)
    second = mixture_second(p["alpha"], q, mu, dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        inf_claim = p["alpha"] * inf_claim
        if beta is None:
            claimed = inf_claim
        else:
            claimed = thm_3_3(alpha=alpha, T=1, n=n, b=b, C=C, sigma=sigma, beta=beta,
                              dps=dps + GUARD_DPS)
        out = Counterexample(p["alpha"], q, mu, claimed, first, second, first / claimed,
                             inf_claim / first)
    with precision(dps):
        return Counterexample(*(+getattr(out, f) for f in out.__dataclass_fields__))


def projected_mixture_first(alpha: Number, q: Number, mu: Number, lo: Number, hi: Number, *,
                            dps: int = 30) -> mpf:
    """``D_alpha(Pi(X') || Pi(X))`` for ``X ~ N(0,1)``, ``X' ~ (1-q) N(0,1) + q N(mu,1)`` and
    Pi the projection onto ``[lo, hi]`` (``lo <= 0 <= hi``), by quadrature plus the two atoms.

    The one-step law of DPSGD-DC on the counterexample of (12) with K = [lo, hi] (in units
    of the noise eta sigma, theta_0 = 0 in K).  Unrounded.
    """
    ref = cite(PAPER, "Thm 3.4, eq. (14) (adjacency order)")
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", ref)
        require(a > 1, "alpha", alpha, "alpha > 1", ref)
        qv, m = to_mpf(q, "q", ref), to_mpf(mu, "mu", ref)
        lv, hv = to_mpf(lo, "lo", ref, allow_inf=True), to_mpf(hi, "hi", ref, allow_inf=True)
        require(lv <= 0 <= hv and lv < hv, "lo", lo, "lo <= 0 <= hi, lo < hi", ref)

        def ratio(z: mpf) -> mpf:  # density of X' over density of X at z
            return 1 - qv + qv * mpmath.exp(m * z - m * m / 2)

        def f(z: mpf) -> mpf:
            return mpmath.npdf(z) * ratio(z) ** a

        inner = [lv, *sorted(x for x in {mpf(0), m, a * m} if lv < x < hv), hv]
        total = mpmath.quad(f, inner)
        # atoms: P(X <= lo), P(X' <= lo), P(X >= hi), P(X' >= hi)
        if lv > mpmath.ninf:
            p0, p1 = Phi(lv), (1 - qv) * Phi(lv) + qv * Phi(lv - m)
            total += p1 ** a * p0 ** (1 - a)
        if hv < mpmath.inf:
            p0, p1 = Phi(-hv), (1 - qv) * Phi(-hv) + qv * Phi(m - hv)
            total += p1 ** a * p0 ** (1 - a)
        out = mpmath.log(total) / (a - 1)
    with precision(dps):
        return +out


def eq_14_counterexample(*, alpha: Number = 10, n: int = 100, b: int = 1, C: Number = 1,
                         sigma: Number = "0.5", eta: Number = 1, L: Number = "1e-6",
                         D: Number = 6, dps: int = 30) -> tuple[mpf, mpf]:
    """(divergence, Thm 3.4's bound) for DPSGD-DC on the counterexample of (12), one step,
    K = [-D/2, D/2] (diameter D, theta_0 = 0 at its centre), mixture first.

    The bound is eq. (14) minimised over beta (:func:`dpsym.papers.liang2025.closed_forms.rho_dc`)
    times alpha; the divergence is :func:`projected_mixture_first` at q = b/(n+1),
    mu = C/(b sigma), the interval in units of eta sigma.  Any L > 0 is admissible (the
    losses are linear); a small L makes the bound smallest.
    """
    ref = cite(PAPER, "Thm 3.4, eq. (14) (adjacency order)")
    with precision(dps + GUARD_DPS):
        p = check(ref, alpha=alpha, n=n, b=b, C=C, sigma=sigma, eta=eta, L=L, D=D)
        q = mpf(p["b"]) / (p["n"] + 1)
        mu = p["C"] / (p["b"] * p["sigma"])
        half = p["D"] / (2 * p["eta"] * p["sigma"])
    div = projected_mixture_first(p["alpha"], q, mu, -half, half, dps=dps)
    bound = rho_dc(n=n, b=b, eta=eta, C=C, sigma=sigma, L=L, D=D, dps=dps)
    with precision(dps + GUARD_DPS):
        return div, +(p["alpha"] * bound)


@functools.cache
def _a12_fn():
    expr, q, s = lem_a_12_expr()
    return sp.lambdify((S.alpha, q, s), expr, "mpmath")


@dataclass(frozen=True)
class SgmBothOrders:
    """Lemma A.12 at (alpha, q, s): the bound ``2 alpha q^2/s^2`` and both orders."""

    alpha: int
    q: mpf
    s: mpf
    alpha_star: mpf
    bound: mpf
    first: mpf
    second: mpf


@functools.cache
def lemma_a12_both_orders(q: Number, s: Number, *, orders: tuple[int, ...] | None = None,
                          dps: int = 30) -> tuple[SgmBothOrders, ...]:
    """Lemma A.12 (MTZ19, Thm 11) checked in both orders at integer orders up to alpha*(q, s).

    ``orders`` defaults to ``2, floor(alpha*)/2, floor(alpha*)``.  Both exact divergences
    must lie below ``2 alpha q^2 / s^2``; this is why the "n^2" variants (11), (13), (15)
    are not affected by the adjacency gap of (10), (12), (14).  Cached (a pure function).
    """
    ref = cite(PAPER, "Lemma A.12")
    a_star = sgm_alpha_star(q, s, dps=dps)
    top = int(mpmath.floor(a_star))
    require(top >= 2, "s", s, "alpha*(q, s) >= 2", ref)
    if orders is None:
        orders = tuple(sorted({2, max(2, top // 2), top}))
    out = []
    for a in orders:
        a = require_integer("alpha", a, ref, minimum=2)
        require(a <= a_star, "alpha", a, f"alpha <= alpha*(q, s) = {mpmath.nstr(a_star, 8)}", ref)
        with precision(dps + GUARD_DPS):
            qv, sv = to_mpf(q, "q", ref), to_mpf(s, "s", ref)
            bound = mpf(_a12_fn()(a, qv, sv))
            inv = 1 / sv
        first = mixture_first(a, qv, inv, dps=dps)
        second = mixture_second(a, qv, inv, dps=dps)
        out.append(SgmBothOrders(a, qv, sv, a_star, bound, first, second))
    return tuple(out)


@functools.cache
def eq_14_search(*, alphas: tuple[int, ...] = (2, 10, 50),
                 qs: tuple[str, ...] = ("0.001", "0.01", "0.1"),
                 mus: tuple[str, ...] = ("2", "8"), widths: tuple[str, ...] = ("1", "8"),
                 offsets: tuple[str, ...] = ("0", "0.5"), dps: int = 15
                 ) -> tuple[int, mpf, tuple]:
    """How hard dpsym looked for a one-step violation of (14) in the add order.

    For every combination: K = [-w f, w (1 - f)] (width w in units of eta sigma, theta_0 = 0
    at fraction f from its left end), shift mu, rate q, order alpha; the mixture-first
    divergence of the projected laws (:func:`projected_mixture_first`) against (14)
    minimised over beta with eta L -> 0, ``alpha (sqrt(2 q mu^2) + w/sqrt(2))^2`` in these
    units.  Returns ``(instances, max divergence/bound, its parameters)``.
    """
    best, arg, count = mpf(0), (), 0
    for a in alphas:
        for q in qs:
            for mu in mus:
                for w in widths:
                    for f in offsets:
                        with precision(dps + GUARD_DPS):
                            lo = -to_mpf(w) * to_mpf(f)
                            hi = lo + to_mpf(w)
                            bound = a * (mpmath.sqrt(2 * to_mpf(q)) * to_mpf(mu)
                                         + to_mpf(w) / mpmath.sqrt(2)) ** 2
                        div = projected_mixture_first(a, q, mu, lo, hi, dps=dps)
                        count += 1
                        with precision(dps + GUARD_DPS):
                            r = div / bound
                        if r > best:
                            best, arg = r, (a, q, mu, w, f)
    return count, best, arg
