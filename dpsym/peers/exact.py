"""Independent exact evaluations: the truth the peer libraries are measured against.

These are *oracles*: each quantity a peer computes is re-evaluated here from its
definition, by a route that shares no code path with dpsym's own implementation (which
the tests then check against these oracles, never against the peers).

* :func:`oracle_log_a` / :func:`oracle_poisson_rdp`: the Renyi divergence of the
  Poisson-subsampled Gaussian (Mironov, Talwar & Zhang 2019, Sec. 3),
  A_alpha = E_{z ~ N(0, sigma^2)}[((1 - q) + q exp((2z - 1)/(2 sigma^2)))^alpha],
  RDP = log(A_alpha)/(alpha - 1).  Integer alpha: the binomial expansion
  sum_k C(alpha, k) (1-q)^(alpha-k) q^k exp(k(k-1)/(2 sigma^2)) with plain (not
  log-space) terms; real alpha: Gauss-Legendre quadrature of the integrand *as written*
  on a finite window cut into sigma-wide panels.  dpsym instead sums expm1 terms in log
  space and integrates the cancellation-free (1 + w)^alpha - 1 - alpha w by tanh-sinh;
  here the cancellation A_alpha - 1 ~ q^2 is paid for with 2 log10(1/q) extra digits.
* :func:`oracle_gdp_delta` / :func:`oracle_gdp_epsilon`: the exact tradeoff of mu-GDP,
  delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong, Roth & Su 2022,
  Cor. 2.13; Balle & Wang 2018, Thm 8), evaluated directly with guard digits, and its
  inverse by bisection on a bracket that doubles until it holds (no fixed cap).
* :func:`poisson_clt_mu`: the GDP parameter the Poisson central limit theorem assigns to
  T steps of DP-SGD, mu = q sqrt(T (e^{1/sigma^2} - 1)) (Bu, Dong, Long & Su 2020,
  Cor. 5 / Thm 6): the approximation Opacus's ``GaussianAccountant`` reports.  It is an
  approximation, not a privacy bound; it is here because the peer audit compares
  Opacus's evaluation of it with the exact one.
* :func:`oracle_balle_epsilon`: eps of an RDP curve on a grid of orders by the
  conversion every audited peer uses (Balle et al. 2020, Thm 21):
  eps = min_alpha tau_alpha + log((alpha - 1)/alpha) - (log delta + log alpha)/(alpha - 1).

Floats are taken as the binary doubles they are (the peers receive those doubles), so
an exact value here is the exact value *at the peer's input*.
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import Number, precision, to_mpf

__all__ = [
    "oracle_balle_epsilon",
    "oracle_gdp_delta",
    "oracle_gdp_epsilon",
    "oracle_log_a",
    "oracle_poisson_rdp",
    "poisson_clt_mu",
]

REF = "dpsym.peers.exact (oracle)"


def _extra_digits(q: mpf) -> int:
    """Digits lost to A_alpha - 1 ~ q^2 (and a margin)."""
    return 2 * max(0, int(-mpmath.log10(q))) + 15


def _log_a_integer(q: mpf, sigma: mpf, alpha: int) -> mpf:
    s2 = 2 * sigma * sigma
    total = mpf(0)
    for k in range(alpha + 1):
        total += (mpmath.binomial(alpha, k) * (1 - q) ** (alpha - k) * q**k
                  * mpmath.exp(k * (k - 1) / s2))
    return mpmath.log(total)


def _log_a_real(q: mpf, sigma: mpf, alpha: mpf) -> mpf:
    s2 = sigma * sigma
    norm = 1 / (sigma * mpmath.sqrt(2 * mpmath.pi))

    def f(z: mpf) -> mpf:
        return norm * mpmath.exp(-z * z / (2 * s2)) * (
            (1 - q) + q * mpmath.exp((2 * z - 1) / (2 * s2))) ** alpha

    # Mass sits near z = 0 (the (1 - q) part) and near z = alpha (the q^alpha e^{alpha z}
    # part, a Gaussian centred at alpha); 30 sigma either side is beyond e^-450.
    lo = min(mpf(0), alpha) - 30 * sigma
    hi = max(mpf(1), alpha) + 30 * sigma
    panels = int(mpmath.ceil((hi - lo) / (2 * sigma)))
    pts = [lo + (hi - lo) * i / panels for i in range(panels + 1)]
    val, err = mpmath.quad(f, pts, method="gauss-legendre", error=True)
    if not err <= val * mpf(10) ** (-mpmath.mp.dps + 10):
        raise ArithmeticError(f"oracle quadrature error estimate {err} for A = {val}")
    return mpmath.log(val)


def oracle_log_a(q: Number, sigma: Number, alpha: Number, dps: int = 40) -> mpf:
    """log A_alpha of the Poisson-subsampled Gaussian (MTZ19, Sec. 3), by the oracle route.

    Integer ``alpha`` (>= 2) by the plain binomial sum, real ``alpha > 1`` by panel
    Gauss-Legendre quadrature of the integrand as written; both at ``dps`` plus
    2 log10(1/q) + 15 digits.  Not rounded; accurate to about ``dps`` digits.

    >>> from dpsym.numerics import nstr
    >>> nstr(oracle_log_a(0.01, 2.5, 2), 12)     # log(1 + q^2 (e^{1/sigma^2} - 1))
    '1.73509365708e-5'
    """
    with precision(dps + 5):
        qv, sv, av = to_mpf(q, "q", REF), to_mpf(sigma, "sigma", REF), to_mpf(alpha, "alpha", REF)
        require(0 < qv < 1, "q", q, "0 < q < 1", REF)
        require(sv > 0, "sigma", sigma, "sigma > 0", REF)
        require(av > 1, "alpha", alpha, "alpha > 1", REF)
        extra = _extra_digits(qv)
    with precision(dps + extra):
        qv, sv, av = to_mpf(q), to_mpf(sigma), to_mpf(alpha)
        out = _log_a_integer(qv, sv, int(av)) if av == int(av) else _log_a_real(qv, sv, av)
    with precision(dps):
        return +out


def oracle_poisson_rdp(q: Number, sigma: Number, alpha: Number, steps: Number = 1,
                       dps: int = 40) -> mpf:
    """RDP of order alpha of ``steps`` Poisson-subsampled Gaussian steps: steps *
    log(A_alpha)/(alpha - 1) by :func:`oracle_log_a`.  Not rounded (an oracle, not a bound).

    >>> from dpsym.numerics import nstr
    >>> nstr(oracle_poisson_rdp(0.01, 2.5, 1.5, steps=50), 11)
    '0.00065007089719'
    """
    t = require_integer("steps", steps, REF, minimum=1)
    la = oracle_log_a(q, sigma, alpha, dps=dps + 5)
    with precision(dps + 5):
        out = t * la / (to_mpf(alpha) - 1)
    with precision(dps):
        return +out


def oracle_gdp_delta(mu: Number, eps: Number, dps: int = 40) -> mpf:
    """delta(eps) of mu-GDP: Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), direct.

    The two terms cancel to about log10(eps/mu^2 + 1) + 2 digits; 30 guard digits cover
    every case audited (eps <= 1e4).  Not rounded.

    >>> from dpsym.numerics import nstr
    >>> nstr(oracle_gdp_delta(1, 100), 5)      # float64 gives 0
    '6.1492e-2155'
    """
    with precision(dps + 30):
        m, e = to_mpf(mu, "mu", REF), to_mpf(eps, "eps", REF)
        require(m > 0, "mu", mu, "mu > 0", REF)
        out = mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)
    with precision(dps):
        return +out


def oracle_gdp_epsilon(mu: Number, delta: Number, dps: int = 40) -> mpf:
    """The eps >= 0 at which mu-GDP has delta(eps) = ``delta`` (0 if delta(0) <= delta).

    Bisection on a bracket [0, b], b doubled until delta(b) < delta: no fixed cap, so
    mu = 50, delta = 1e-100 (eps ~ 2.3e3) is found as easily as mu = 1.

    >>> from dpsym.numerics import nstr
    >>> nstr(oracle_gdp_epsilon(1, "1e-5"), 12)
    '4.37717809568'
    """
    with precision(dps + 10):
        m, d = to_mpf(mu, "mu", REF), to_mpf(delta, "delta", REF)
        require(m > 0, "mu", mu, "mu > 0", REF)
        require(0 < d < 1, "delta", delta, "0 < delta < 1", REF)

    def excess(e: mpf) -> mpf:
        return oracle_gdp_delta(m, e, dps=dps + 10) - d

    with precision(dps + 10):
        if excess(mpf(0)) <= 0:
            return mpf(0)
        lo, hi = mpf(0), mpf(1)
        while excess(hi) > 0:
            lo, hi = hi, 2 * hi
        while hi - lo > hi * mpf(10) ** (-dps - 5):
            mid = (lo + hi) / 2
            if excess(mid) > 0:
                lo = mid
            else:
                hi = mid
    with precision(dps):
        return +hi


def poisson_clt_mu(q: Number, sigma: Number, steps: Number, dps: int = 40) -> mpf:
    """mu = q sqrt(T (e^{1/sigma^2} - 1)): the Poisson CLT's GDP parameter for T steps
    (Bu, Dong, Long & Su 2020).  An approximation to the privacy of DP-SGD, not a bound.

    >>> from dpsym.numerics import nstr
    >>> nstr(poisson_clt_mu("0.04", "1.5", 2250), 12)
    '1.41938176379'
    """
    t = require_integer("steps", steps, REF, minimum=1)
    with precision(dps + 10):
        qv, sv = to_mpf(q, "q", REF), to_mpf(sigma, "sigma", REF)
        require(0 < qv <= 1, "q", q, "0 < q <= 1", REF)
        require(sv > 0, "sigma", sigma, "sigma > 0", REF)
        out = qv * mpmath.sqrt(t * mpmath.expm1(1 / (sv * sv)))
    with precision(dps):
        return +out


def oracle_balle_epsilon(orders: Sequence[Number], rdp: Sequence[Number], delta: Number,
                         dps: int = 40) -> tuple[mpf, mpf]:
    """(eps, order): min over the grid of tau + log((a-1)/a) - (log delta + log a)/(a-1)
    (Balle et al. 2020, Thm 21), clipped at 0 as the peers clip it.  An oracle of the
    conversion the audited peers use, for exact RDP values."""
    require(len(orders) == len(rdp) and len(orders) > 0, "orders", orders,
            "as many orders as rdp values (at least one)", REF)
    best: tuple[mpf, mpf] | None = None
    with precision(dps + 10):
        d = to_mpf(delta, "delta", REF)
        for a_raw, t_raw in zip(orders, rdp, strict=True):
            a, t = to_mpf(a_raw, "alpha", REF), to_mpf(t_raw, "rdp", REF, allow_inf=True)
            if mpmath.isinf(t):
                continue
            e = t + mpmath.log((a - 1) / a) - (mpmath.log(d) + mpmath.log(a)) / (a - 1)
            if best is None or e < best[0]:
                best = (e, a)
    require(best is not None, "rdp", rdp, "at least one finite value", REF)
    with precision(dps):
        return max(+best[0], mpf(0)), +best[1]
