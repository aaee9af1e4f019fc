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
    *(Fraction(k, 4) for k in range(8, 48)), *(Fraction(k) for k in range(12, 65)),
    *(Fraction(k) for k in (72, 80, 96, 112, 128, 160, 192, 256, 512, 1024)))


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

    def ok(k: int, fast: bool) -> tuple[bool, mpf]:
        nonlocal evals
        evals += 1
        e = _epsilon(method, relation, make_event(k * step), delta, fast, width)
        return e <= target, e

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
    while k_hi - k_lo > 1:  # bracket with the cheap setting (certified, only looser)
        mid = (k_lo + k_hi) // 2
        if ok(mid, True)[0]:
            k_hi = mid
        else:
            k_lo = mid
    # the full accountant decides: up while it does not certify k_hi, then down by
    # doubling steps and a bisection to its own boundary
    good, eps = ok(k_hi, False)
    while not good:
        k_hi += 1
        good, eps = ok(k_hi, False)
    d, k_bad = 1, None
    while k_hi - d >= 1:
        g, e = ok(k_hi - d, False)
        if not g:
            k_bad = k_hi - d
            break
        k_hi, eps = k_hi - d, e
        d *= 2
    k_bad = 0 if k_bad is None else k_bad
    while k_hi - k_bad > 1:
        mid = (k_bad + k_hi) // 2
        g, e = ok(mid, False)
        if g:
            k_hi, eps = mid, e
        else:
            k_bad = mid
    return Calibration(k_hi * step, eps, target, mpf(str(delta)), method, evals)
