"""Noise calibration: the smallest noise multiplier on a grid whose certified eps is <= a target.

The run is described by a function ``make_event(sigma)`` (e.g. T Poisson-sampled Gaussian
steps), the accountant by its name.  eps(sigma) decreases in sigma, so a bisection over the
grid sigma_k = k * ``sigma_step`` finds the boundary.  Every decision "eps(sigma) <= target"
is taken on a *certified* upper bound, so the returned sigma is always private enough; the
search first uses a cheap accountant setting (integer orders for RDP, a coarse width for
PLD) to bracket the boundary, then re-checks the neighbouring grid points with the full
accountant, so the result is the smallest grid sigma that the full accountant certifies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import mpmath
from mpmath import mpf

from dpsym.accounting.accountants import GdpAccountant, PldAccountant, RdpAccountant
from dpsym.accounting.events import DpEvent, GaussianEvent, PoissonSampledEvent, SelfComposedEvent
from dpsym.errors import HypothesisError, require
from dpsym.numerics import Number, nstr

__all__ = ["Calibration", "calibrate_noise", "poisson_run"]

REF = "dpsym calibrate"

#: The bracketing phase's orders: a coarse grid that still reaches close to 1 (small targets
#: put the optimal order near 1) and up to 1024 (large ones); only a certified upper bound,
#: looser than the full real-order search, which takes every final decision.
FAST_ORDERS: tuple[Fraction, ...] = (
    *(1 + Fraction(x) for x in ("0.001", "0.002", "0.005", "0.01", "0.02", "0.05", "0.1",
                                "0.2", "0.3", "0.4", "0.5", "0.6", "0.8")),
    *(Fraction(k, 4) for k in range(8, 48)), *(Fraction(k) for k in range(12, 64)),
    # geometric above 64 (ratio 2^(1/8)) up to the real-order search's 4096: the optimal
    # order of a small target lies there, and a gap such as 512 -> 1024 made the bracket
    # (and the full accountant's walk down to its own boundary) cost 40 evaluations
    *(Fraction(round(64 * 2 ** (k / 8))) for k in range(49)))


@dataclass(frozen=True)
class Calibration:
    """The calibrated noise multiplier and the certified eps it achieves."""

    sigma: Fraction
    epsilon: mpf
    target_epsilon: mpf
    delta: mpf
    accountant: str
    evaluations: int

    def __float__(self) -> float:
        return float(self.sigma)

    def __format__(self, spec: str) -> str:
        return format(float(self.sigma), spec)

    def to_dict(self) -> dict[str, object]:
        return {"sigma": str(self.sigma),
                "sigma_decimal": nstr(mpf(self.sigma.numerator) / self.sigma.denominator, 12),
                "epsilon": nstr(self.epsilon, 17),
                "target_epsilon": nstr(self.target_epsilon, 17),
                "delta": nstr(self.delta, 17), "accountant": self.accountant,
                "evaluations": self.evaluations}


def poisson_run(q: Number, steps: int) -> Callable[[Fraction], DpEvent]:
    """``make_event`` for ``steps`` Poisson-sampled Gaussian steps at rate ``q``."""
    return lambda s: SelfComposedEvent(PoissonSampledEvent(q, GaussianEvent(s)), steps)


def _epsilon(method: str, relation: str, event: DpEvent, delta: Number, fast: bool,
             width: float) -> mpf:
    if method == "rdp":
        acc = RdpAccountant(relation, orders=FAST_ORDERS if fast else None,
                            dps=20 if fast else 30)
        return acc.compose(event).get_epsilon(delta).value
    if method == "pld":
        acc = PldAccountant(relation, width=width * (10 if fast else 1))
        return acc.compose(event).get_epsilon(delta).upper
    acc = GdpAccountant(relation)
    return acc.compose(event).get_epsilon(delta).value


def _narrow(test: Callable[[int], tuple[bool, mpf]], k_bad: int, e_bad: mpf | None,
            k_good: int, e_good: mpf, target: mpf) -> tuple[int, mpf]:
    """Shrink the bracket (k_bad fails, k_good passes) to adjacent grid points.

    eps(sigma) is smooth and decreasing, so a regula falsi in (log sigma, log eps) with the
    Illinois modification takes a handful of evaluations where a bisection over 10^6 grid
    points takes twenty.  It is only a choice of where to look: every step keeps a failing
    and a passing point, so the answer is the same as bisection's.
    """
    log_t, side = mpmath.log(target), 0
    while k_good - k_bad > 1:
        if k_bad == 0 or e_bad is None or not (e_bad > 0 and e_good > 0) or e_bad == e_good:
            mid = (k_bad + k_good) // 2
        else:
            x0, x1 = mpmath.log(k_bad), mpmath.log(k_good)
            y0, y1 = mpmath.log(e_bad) - log_t, mpmath.log(e_good) - log_t
            if side == 1:  # the failing end is stale: halve its weight (Illinois)
                y0 /= 2
            elif side == -1:
                y1 /= 2
            x = x1 - y1 * (x1 - x0) / (y1 - y0)
            mid = min(max(int(mpmath.floor(mpmath.exp(x))), k_bad + 1), k_good - 1)
        good, e = test(mid)
        if good:
            k_good, e_good, side = mid, e, 1
        else:
            k_bad, e_bad, side = mid, e, -1
    return k_good, e_good


def calibrate_noise(
    make_event: Callable[[Fraction], DpEvent], target_epsilon: Number, delta: Number,
    method: str = "rdp", relation: str = "add-remove", sigma_step: Number = "0.001",
    sigma_max: Number = 1000, width: float = 1e-3,
) -> Calibration:
    """The smallest sigma = k * sigma_step (k >= 1) with certified eps(delta) <= target.

    >>> from dpsym.accounting import calibrate_noise, poisson_run
    >>> c = calibrate_noise(poisson_run("0.01", 1000), 2, "1e-5")
    >>> print(float(c.sigma), f"{float(c.epsilon):.4f}")
    1.023 1.9968
    """
    require(method in ("rdp", "pld", "gdp"), "method", method, "rdp, pld or gdp", REF)
    step = Fraction(str(sigma_step))
    top = Fraction(str(sigma_max))
    require(step > 0, "sigma_step", sigma_step, "sigma_step > 0", REF)
    require(top > step, "sigma_max", sigma_max, f"sigma_max > sigma_step = {step}", REF)
    target = mpf(str(target_epsilon))
    require(target > 0, "target_epsilon", target_epsilon, "target_epsilon > 0", REF)
    evals = 0
    seen: dict[tuple[int, bool], mpf] = {}

    def ok(k: int, fast: bool) -> tuple[bool, mpf]:
        nonlocal evals
        if (k, fast) not in seen:
            evals += 1
            seen[k, fast] = _epsilon(method, relation, make_event(k * step), delta, fast, width)
        return seen[k, fast] <= target, seen[k, fast]

    k_hi = int(top / step)
    k_lo = 0  # sigma = 0 is never private
    if method != "rdp":
        # bracket with the fast RDP calibration: the PLD/GDP boundary lies below it in
        # practice, and extreme sigmas (huge privacy losses) are slow for PLD
        k_hi = int(calibrate_noise(make_event, target_epsilon, delta, "rdp", relation,
                                   sigma_step, sigma_max).sigma / step)
        while not ok(k_hi, True)[0]:
            k_lo, k_hi = k_hi, 2 * k_hi
        k_lo = max(k_lo, k_hi // 2)
        while k_lo > 1 and ok(k_lo, True)[0]:
            k_hi, k_lo = k_lo, k_lo // 2
    else:
        # exponential search from sigma = 1 (typical runs need sigma in [0.5, 8]): a few
        # evaluations bracket the boundary within a factor 2, where bisecting from sigma_max
        # took log2(sigma_max / sigma_step) ~ 20
        k_top, k = k_hi, min(max(1, round(1 / step)), k_hi)
        if ok(k, True)[0]:
            k_hi, k_lo = k, k // 2
            while k_lo >= 1 and ok(k_lo, True)[0]:
                k_hi, k_lo = k_lo, k_lo // 2
        else:
            k_lo = k
            while True:
                nxt = min(2 * k_lo, k_top)
                if nxt > k_lo and ok(nxt, True)[0]:
                    k_hi = nxt
                    break
                if nxt == k_top:
                    if not ok(k_top, False)[0]:
                        raise HypothesisError("target_epsilon", target_epsilon,
                                              f"reachable with sigma <= sigma_max = {top}", REF)
                    k_hi = k_top
                    break
                k_lo = nxt
    # bracket with the cheap setting (certified, only looser)
    k_hi, _ = _narrow(lambda k: ok(k, True), k_lo, seen.get((k_lo, True)), k_hi,
                      seen[k_hi, True], target)
    # the full accountant decides: up while it does not certify k_hi, then down to its own
    # boundary (:func:`_narrow`); every decision is the full accountant's.
    good, eps = ok(k_hi, False)
    while not good:
        k_hi += 1
        good, eps = ok(k_hi, False)
    # first probe: eps ~ 1/sigma puts it at or below the boundary for every eps ~ sigma^-p,
    # p >= 1 (the Gaussian mechanism's p = 1 included)
    k_bad, e_bad = None, None
    probe = int(k_hi * eps / target)
    while k_bad is None:
        probe = min(max(probe, 0), k_hi - 1)
        if probe == 0:
            k_bad = 0
            break
        g, e = ok(probe, False)
        if g:
            k_hi, eps = probe, e
            probe = probe // 2
        else:
            k_bad, e_bad = probe, e
    k_hi, eps = _narrow(lambda k: ok(k, False), k_bad, e_bad, k_hi, eps, target)
    return Calibration(k_hi * step, eps, target, mpf(str(delta)), method, evals)
