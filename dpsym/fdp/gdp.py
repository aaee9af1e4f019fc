"""Gaussian differential privacy: composition and conversions to (eps, delta) and RDP.

Notation (Dong, Roth & Su 2022, "Gaussian differential privacy", JRSS-B):
a mechanism is mu-GDP when its tradeoff function is at least
G(mu)(x) = Phi(Phi^-1(1 - x) - mu).

* Composition: mu_1-GDP then mu_2-GDP is sqrt(mu_1^2 + mu_2^2)-GDP (DRS22, Cor. 3.3).
* (eps, delta): mu-GDP is (eps, delta(eps))-DP for every eps >= 0, with
  delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2),
  and this curve is exact (DRS22, Cor. 2.13 = Balle & Wang 2018, Thm 8; Bok et al.
  2024, Lemma A.3).
* RDP: mu-GDP implies (alpha, alpha mu^2 / 2)-RDP for all alpha > 1 (DRS22, Cor. B.6;
  Bok et al. 2024, Lemma A.4).
"""

from __future__ import annotations

import mpmath
from mpmath import mp, mpf

from dpsym.errors import require, require_dps
from dpsym.numerics import (
    DEFAULT_DPS,
    GUARD_DPS,
    Number,
    Phi_inv,
    find_root,
    ncdf,
    precision,
    round_down,
    round_up,
    to_mpf,
)

__all__ = ["compose_gdp", "gdp_delta", "gdp_epsilon", "gdp_to_rdp"]

REF_DELTA = "Dong, Roth & Su 2022, Cor. 2.13; Bok et al. 2024, Lemma A.3"
REF_RDP = "Dong, Roth & Su 2022, Cor. B.6; Bok et al. 2024, Lemma A.4"
#: The largest mu :func:`gdp_epsilon` accepts (bounded work; see there).
MAX_MU = 1e50


def _mu(mu: Number, ref: str) -> mpf:
    m = to_mpf(mu, "mu", ref)
    require(m >= 0, "mu", mu, "mu >= 0", ref)
    return m


def compose_gdp(*mus: Number, dps: int = DEFAULT_DPS) -> mpf:
    """mu of the composition of mu_i-GDP mechanisms: sqrt(sum mu_i^2) (DRS22, Cor. 3.3).

    Rounded up: the result is a privacy bound.
    """
    dps = require_dps(dps)
    with precision(dps + GUARD_DPS):
        vals = [_mu(m, "Dong, Roth & Su 2022, Cor. 3.3") for m in mus]
        out = mpmath.sqrt(mpmath.fsum(v * v for v in vals))
    return round_up(out, dps)


def _delta_terms(m: mpf, e: mpf) -> tuple[mpf, mpf]:
    """The two terms of Lemma A.3, Phi(-e/m + m/2) and e^e Phi(-e/m - m/2)."""
    a = -e / m + m / 2
    t1 = ncdf(a)
    # e^e * Phi(a - m) evaluated as exp(e + log Phi) so that neither factor overflows.
    t2 = mpmath.exp(e + mpmath.log(ncdf(a - m)))
    return t1, t2


def _delta_raw(m: mpf, e: mpf) -> mpf:
    """delta(eps) at the current precision, raising precision to cover the cancellation.

    For eps/mu large both terms are ~phi(a)/|a| and their difference ~phi(a) mu/a^2, so
    log10(|a|/mu) digits cancel; the loop re-evaluates with that many more digits.
    """
    if m == 0:
        return mpf(0)
    extra = 0
    for _ in range(6):
        with mp.workdps(mp.dps + extra):
            t1, t2 = _delta_terms(m, e)
            d = t1 - t2
            lost = mp.dps if d <= 0 else int(mpmath.ceil(mpmath.log10(t1 / d)))
            if lost + 3 <= extra or (extra == 0 and lost <= 2):
                return +d
        extra = max(2 * extra, lost + GUARD_DPS)
    return +d


def _delta_ball_upper(mu: Number, eps: Number, dps: int) -> mpf | None:
    """Upper end of an arb ball around delta(eps) with relative radius <= 10^-(dps+2).

    The inputs are taken exactly (decimal strings as decimals); the working precision is
    doubled until the cancellation of the two terms is covered.  None without python-flint.
    """
    from dpsym.balls import HAVE_FLINT, arb_precision, ball, ncdf, relative_radius, upper_mpf

    if not HAVE_FLINT:
        return None
    prec = int((dps + 12) * 3.33)
    for _ in range(8):
        with arb_precision(prec):
            m, e = ball(mu), ball(eps)
            a = -e / m + m / 2
            d = ncdf(a) - e.exp() * ncdf(a - m)
            if relative_radius(d) <= 10.0 ** (-dps - 2):
                return max(upper_mpf(d), mpf(0))
        prec *= 2
    return None  # pragma: no cover - precision doubling always converges


def gdp_delta(mu: Number, eps: Number, dps: int = DEFAULT_DPS) -> mpf:
    """delta(eps) of a mu-GDP mechanism (exact tradeoff curve; Bok et al. 2024, Lemma A.3).

    delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)  for eps >= 0, mu >= 0.

    With python-flint the value is the upper end of an arb ball that contains the exact
    delta (inputs taken exactly), rounded *up* to ``dps`` digits: a certified upper bound.
    Without it, mpmath with guard digits (more where the two terms cancel), rounded up.

    >>> from dpsym import gdp_delta
    >>> from dpsym.numerics import nstr
    >>> nstr(gdp_delta(1, 1, dps=30), 25)
    '0.1269367375066439458008296'
    """
    dps = require_dps(dps)
    with precision(dps + GUARD_DPS):
        m = _mu(mu, REF_DELTA)
        e = to_mpf(eps, "eps", REF_DELTA)
        require(e >= 0, "eps", eps, "eps >= 0", REF_DELTA)
        d = _delta_raw(m, e)
        d = max(d, mpf(0))
    if m != 0:
        certified = _delta_ball_upper(mu, eps, dps)
        if certified is not None:
            d = certified
    # delta is a difference of probabilities, <= 1; a ball's upper end may poke above it.
    return round_up(min(d, mpf(1)), dps)


def gdp_epsilon(mu: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Smallest eps >= 0 with delta(eps) <= delta for a mu-GDP mechanism (inverse of Lemma A.3).

    delta(eps) is strictly decreasing on [0, inf) from 2 Phi(mu/2) - 1 to 0 (Bok et al.
    2024, Lemma A.3), so the root is unique; if delta >= 2 Phi(mu/2) - 1 the answer is 0.
    The bracket starts at the tail approximation eps ~ mu (mu/2 - Phi^-1(delta)) and widens
    as needed, so it works for any mu (tested to mu = 1000) and delta (tested to 1e-300).
    The root is taken on its upper side and rounded up; with python-flint the inequality
    delta(eps) <= delta at the returned eps is then checked in ball arithmetic (and eps
    raised if it failed), so the returned eps is a certified bound.

    >>> from dpsym import gdp_epsilon
    >>> from dpsym.numerics import nstr
    >>> nstr(gdp_epsilon(1, "1e-5", dps=30), 25)
    '4.377178095681224627650116'
    """
    dps = require_dps(dps)
    with precision(dps + GUARD_DPS):
        m = _mu(mu, REF_DELTA)
        # Bounded work: eps ~ mu^2/2, and certifying delta(eps) <= delta in ball arithmetic
        # slows down sharply beyond eps ~ 10^100 (mu = 10^100 takes ~20 s).
        require(m <= MAX_MU, "mu", mu, f"mu <= {MAX_MU:g} (the cap of gdp_epsilon; then "
                "eps > 10^100)", REF_DELTA)
        d = to_mpf(delta, "delta", REF_DELTA)
        require(0 < d < 1, "delta", delta, "0 < delta < 1", REF_DELTA)
        if m == 0 or d >= 2 * ncdf(m / 2) - 1:
            return mpf(0)
        guess = max(m * (m / 2 - Phi_inv(d)), mpf("1e-6"))
        # Compare in log space: delta may be 1e-300 and below.
        logd = mpmath.log(d)

        def g(e: mpf) -> mpf:
            v = _delta_raw(m, e)
            return (mpmath.log(v) if v > 0 else mpf(-10) ** 9) - logd

        e = find_root(g, guess / 2, guess * 2, lower=0, side="upper")
        e = round_up(e, dps)
        # certify: delta(e) <= delta in ball arithmetic; else step up by 10^-dps relative
        for _ in range(50):
            up = _delta_ball_upper(mu, e, dps + 5)
            if up is None or up <= d:
                break
            e = round_up(e * (1 + mpf(10) ** (-dps)), dps)
    return round_up(e, dps)


def gdp_to_rdp(mu: Number, alpha: Number, dps: int = DEFAULT_DPS) -> mpf:
    """RDP of order alpha implied by mu-GDP: alpha mu^2 / 2 (Bok et al. 2024, Lemma A.4)."""
    dps = require_dps(dps)
    with precision(dps + GUARD_DPS):
        m = _mu(mu, REF_RDP)
        a = to_mpf(alpha, "alpha", REF_RDP)
        require(a > 1, "alpha", alpha, "alpha > 1", REF_RDP)
        out = a * m * m / 2
    return round_up(out, dps)


def gdp_mu_from_epsilon_delta(eps: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Largest mu such that mu-GDP implies (eps, delta)-DP: the inverse of Lemma A.3 in mu.

    delta(eps; mu) increases in mu, so the root is unique.  Rounded *down*: a smaller mu
    is the conservative choice when calibrating a mechanism to an (eps, delta) target.
    """
    with precision(dps + GUARD_DPS):
        e = to_mpf(eps, "eps", REF_DELTA)
        d = to_mpf(delta, "delta", REF_DELTA)
        require(e >= 0, "eps", eps, "eps >= 0", REF_DELTA)
        require(0 < d < 1, "delta", delta, "0 < delta < 1", REF_DELTA)
        logd = mpmath.log(d)

        def g(m: mpf) -> mpf:
            v = _delta_raw(m, e)
            return (mpmath.log(v) if v > 0 else mpf(-10) ** 9) - logd

        m = find_root(g, mpf("0.5"), mpf(2), lower=0, side="lower")
    return round_down(m, dps)
