"""Independent evaluations that the public bounds are checked against (oracles).

Each function here recomputes a quantity that a public dpsym function bounds, by a route
that shares no code with it, so that a check comparing the two fails when the bound moves in
the unsafe direction (a smaller upper bound, a larger lower bound, a rounding towards the
wrong side).  They are slow and plain on purpose: a direct integral instead of a closed
form, a brute-force search instead of an optimiser, an exact finite sum instead of a
certified series.

* :func:`oracle_gdp_delta` -- delta(eps) of mu-GDP as the integral of (p - e^eps q)_+ for
  p = N(mu, 1), q = N(0, 1) densities (no normal CDF, no closed form);
* :func:`oracle_optimal_delta` -- sup E_{e^eps}(P || Q) over two-point P, Q with
  D_alpha(P || Q) <= tau, by a grid over Q(A) and bisection for P(A) (every point evaluated
  is feasible, so the result never exceeds the true supremum);
* :func:`oracle_poisson_rdp` -- the RDP of the Poisson-subsampled Gaussian at an integer
  order from Mironov, Talwar & Zhang 2019, Sec. 3.3's finite binomial sum, term by term.

>>> from dpsym.soundness import oracle_gdp_delta, oracle_poisson_rdp
>>> from dpsym.numerics import nstr
>>> nstr(oracle_gdp_delta(1, 1, dps=20), 12)
'0.126936737507'
>>> nstr(oracle_poisson_rdp("0.01", 1, 2, dps=20), 10)
'0.0001718134221'
"""

from __future__ import annotations

import mpmath
from mpmath import mpf

from dpsym.errors import require, require_dps, require_integer
from dpsym.numerics import Number, precision, to_mpf

__all__ = ["oracle_gdp_delta", "oracle_optimal_delta", "oracle_poisson_rdp"]

REF = "dpsym.soundness (oracle)"


def _density(x: mpf, mean: mpf) -> mpf:
    return mpmath.exp(-(x - mean) ** 2 / 2) / mpmath.sqrt(2 * mpmath.pi)


def oracle_gdp_delta(mu: Number, eps: Number, dps: int = 30) -> mpf:
    """delta(eps) = int (p(x) - e^eps q(x))_+ dx for p = N(mu, 1), q = N(0, 1) (oracle).

    The integrand is positive exactly for x > x* = eps/mu + mu/2; the integral over
    [x*, x* + 40] (the tail beyond is below e^-800 relative) by tanh-sinh quadrature, with
    the interval split where the integrand's scale changes.
    """
    dps = require_dps(dps)
    with precision(dps + 15):
        m, e = to_mpf(mu, "mu", REF), to_mpf(eps, "eps", REF)
        require(m > 0, "mu", mu, "mu > 0", REF)
        require(e >= 0, "eps", eps, "eps >= 0", REF)
        g = mpmath.exp(e)
        x0 = e / m + m / 2

        def f(x: mpf) -> mpf:
            return _density(x, m) - g * _density(x, 0)

        pts = [x0, x0 + mpf(1) / 4, x0 + 1, x0 + 4, x0 + 10, x0 + 40]
        return mpmath.quad(f, pts)


def _renyi_two_point(x: mpf, y: mpf, alpha: mpf) -> mpf:
    """D_alpha((x, 1-x) || (y, 1-y))."""
    s = x**alpha * y ** (1 - alpha) + (1 - x) ** alpha * (1 - y) ** (1 - alpha)
    return mpmath.log(s) / (alpha - 1)


def _best_x(y: mpf, alpha: mpf, tau: mpf, iters: int) -> mpf:
    """The largest x in [y, 1] with D_alpha <= tau (D increases in x on [y, 1]), from below."""
    if _renyi_two_point(mpf(1) - mpf(10) ** (-mpmath.mp.dps), y, alpha) <= tau:
        return mpf(1) - mpf(10) ** (-mpmath.mp.dps)
    lo, hi = y, mpf(1)
    for _ in range(iters):
        mid = (lo + hi) / 2
        if _renyi_two_point(mid, y, alpha) <= tau:
            lo = mid
        else:
            hi = mid
    return lo  # feasible


def oracle_optimal_delta(alpha: Number, tau: Number, eps: Number, grid: int = 80,
                         dps: int = 30) -> mpf:
    """Brute force of sup { P(A) - e^eps Q(A) : D_alpha(P || Q) <= tau } over two-point
    distributions (oracle).

    For Q(A) = y on a log grid of ``grid`` points in (0, 1) the largest feasible P(A) = x is
    found by bisection from the feasible side, then the best y is refined by golden-section
    search.  Every pair evaluated satisfies the constraint, so the value is a *lower* bound
    on the supremum, hence on every valid conversion's delta: a conversion below it is unsafe.
    """
    dps = require_dps(dps)
    grid = require_integer("grid", grid, REF, minimum=10, maximum=10_000)
    with precision(dps + 10):
        a, t, e = (to_mpf(v, k, REF) for v, k in ((alpha, "alpha"), (tau, "tau"), (eps, "eps")))
        require(a > 1, "alpha", alpha, "alpha > 1", REF)
        require(t > 0, "tau", tau, "tau > 0", REF)
        require(e >= 0, "eps", eps, "eps >= 0", REF)
        g = mpmath.exp(e)
        iters = int(mpmath.mp.prec) + 10

        def value(log_y: mpf) -> mpf:
            y = mpmath.exp(log_y)
            return _best_x(y, a, t, iters) - g * y

        lo_log, hi_log = mpf(-60), mpmath.log(mpf("0.999"))
        logs = [lo_log + (hi_log - lo_log) * i / (grid - 1) for i in range(grid)]
        vals = [value(u) for u in logs]
        i = max(range(grid), key=lambda k: vals[k])
        left, right = logs[max(i - 1, 0)], logs[min(i + 1, grid - 1)]
        best = vals[i]
        phi = (mpmath.sqrt(5) - 1) / 2
        c, d = right - phi * (right - left), left + phi * (right - left)
        fc, fd = value(c), value(d)
        for _ in range(int(mpmath.mp.prec * 0.8)):
            if fc >= fd:
                right, d, fd = d, c, fc
                c = right - phi * (right - left)
                fc = value(c)
            else:
                left, c, fc = c, d, fd
                d = left + phi * (right - left)
                fd = value(d)
            best = max(best, fc, fd)
        return max(best, mpf(0))


def oracle_poisson_rdp(q: Number, sigma: Number, alpha: int, dps: int = 30) -> mpf:
    """RDP at integer order alpha >= 2 of the Poisson-subsampled Gaussian (oracle):
    log(A_alpha)/(alpha - 1) with the finite binomial sum of Mironov, Talwar & Zhang 2019,
    Sec. 3.3, A_alpha = sum_k C(alpha, k) (1-q)^(alpha-k) q^k exp((k^2 - k)/(2 sigma^2)),
    summed term by term at ``dps`` + 20 digits (all terms are positive: no cancellation).
    """
    dps = require_dps(dps)
    k_max = require_integer("alpha", alpha, REF, minimum=2, maximum=10_000)
    with precision(dps + 20):
        qv, s = to_mpf(q, "q", REF), to_mpf(sigma, "sigma", REF)
        require(0 <= qv <= 1, "q", q, "0 <= q <= 1", REF)
        require(s > 0, "sigma", sigma, "sigma > 0", REF)
        total = mpmath.fsum(mpmath.binomial(k_max, k) * (1 - qv) ** (k_max - k) * qv**k
                            * mpmath.exp(mpf(k * k - k) / (2 * s * s)) for k in range(k_max + 1))
        return mpmath.log(total) / (k_max - 1)
