"""Certified composition of privacy-loss pairs: (lower, upper) for eps(delta) or delta(eps).

A *scenario* is a list of factors (pair, count): the loss of the composed mechanism is the
sum of ``count`` independent copies of each pair's loss.  Heterogeneous runs (phases with
different q, sigma, steps; C_p(G(a))^{(x)k} (x) G(b)) are one scenario with several factors.
When a mechanism needs several dominating pairs (Poisson add/remove: the "remove" and the
"add" direction, fixed for the whole run), each direction is its own scenario and the
privacy curve is their maximum (Zhu, Dong & Wang 2022, Sec. 5), so

    eps(delta) in [max_d lower_d, max_d upper_d],  delta(eps) in [max_d lower_d, max_d upper_d].

Every scenario is computed twice, on the delta-dominance upper and lower chains of
:mod:`dpsym.pld.grid`; every error (discretisation, truncation of each factor's range and of
the composed window, rounding of the integer masses) is on the chain's own side, so the
interval is certified.  The grid spacing is refined (width ~ h^2) until the interval is as
narrow as asked, the window is widened when the mass sent to +inf is not negligible, and
a computation that would need more than ``max_points`` grid points stops with a
ValueError naming the width that could not be reached (the CLI exits 2), never hangs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
from mpmath import mpf

from dpsym.balls import arb_precision, ball, require_flint
from dpsym.errors import HypothesisError, require
from dpsym.pld.grid import (
    GridMeasure,
    convolve,
    lower_measure,
    self_compose,
    upper_measure,
)
from dpsym.pld.pairs import LossPair

__all__ = [
    "Factor",
    "PLDInterval",
    "certify_delta",
    "certify_epsilon",
    "compose_scenario",
]

REF = "dpsym.pld certified composition"
Scenario = Sequence["Factor"]


@dataclass(frozen=True)
class Factor:
    """``count`` independent copies of the loss of ``pair``."""

    pair: LossPair
    count: int = 1

    def __post_init__(self) -> None:
        require(isinstance(self.count, int) and self.count >= 1, "count", self.count,
                "an integer >= 1", REF)


def _grid_step(x: float) -> Fraction:
    """A short rational near x (grid points j h stay exact in ball arithmetic)."""
    return Fraction(1, max(1, round(1 / x)))


def _threshold(f: Callable[[float], bool], start: float) -> float:
    """The first t = start * 2^k (k >= 0) with f(t) true, refined by bisection to 1e-2."""
    a, b = 0.0, start
    for _ in range(60):
        if f(b):
            break
        a, b = b, 2 * b
    else:
        return b
    for _ in range(30):
        if abs(b - a) < 1e-2:
            break
        m = (a + b) / 2
        if f(m):
            b = m
        else:
            a = m
    return b


def loss_range(pair: LossPair, tail: float) -> tuple[float, float]:
    """[t_lo, t_hi] outside which the P-mass of the loss is below ``tail`` on each side."""
    with arb_precision(160):
        def sp(t: float):
            return pair.tails(ball(Fraction(t)))[0]

        inf, sup = pair.loss_infimum(), pair.loss_supremum()
        hi = float(sup) if sup is not None else _threshold(
            lambda t: float(sp(t).mid()) <= tail, 1.0)
        lo = float(inf) if inf is not None else -_threshold(
            lambda t: 1 - float(sp(-t).mid()) <= tail, 1.0)
    return lo, hi


@dataclass
class ChainPair:
    """The upper and lower chains of one scenario, with the grid spacings used."""

    upper: GridMeasure
    lower: GridMeasure
    h_upper: Fraction
    h_lower: Fraction
    points: int
    seconds: float


def compose_scenario(
    scenario: Scenario, h_lower: Fraction, h_upper: Fraction | None = None, tail: float = 1e-30,
    window_sds: float = 12.0, extra_hi: float = 2.0,
) -> ChainPair:
    """Upper and lower chains of the composed scenario at grid spacings ``h_upper`` and
    ``h_lower`` (default h_upper = 2 h_lower: the upper chain's error does not accumulate).

    ``tail`` bounds the P-mass left outside each factor's range per copy (it is not an
    error term: the upper chain moves it up to the range end or to +inf, the lower chain
    down or away); ``window_sds`` and ``extra_hi`` size the composed window around the
    mean in standard deviations (plus ``extra_hi`` above).
    """
    require_flint("the certified PLD composition")
    t0 = time.process_time()
    h_upper = 2 * h_lower if h_upper is None else h_upper
    total = sum(f.count for f in scenario)
    out: dict[str, GridMeasure] = {}
    points = 0
    for side, h in (("upper", h_upper), ("lower", h_lower)):
        pieces = []
        stats = []
        for f in scenario:
            lo, hi = loss_range(f.pair, tail / total)
            j_lo = math.floor(lo / h) - 1
            j_hi = math.ceil(hi / h) + 1
            build = upper_measure if side == "upper" else lower_measure
            m = build(f.pair, h, j_lo, j_hi)
            pieces.append((m, f.count))
            stats.append((m.mean_var(), f.count))
        mu = sum(c * mv[0] for mv, c in stats)
        sd = math.sqrt(sum(c * mv[1] for mv, c in stats))
        w_lo = math.floor((min(0.0, mu) - window_sds * sd - 1.0) / h)
        w_hi = math.ceil((mu + window_sds * sd + extra_hi) / h)
        result: GridMeasure | None = None
        for m, c in pieces:
            block = self_compose(m, c, w_lo, w_hi)
            result = block if result is None else convolve(result, block, w_lo, w_hi)
            points = max(points, result.size)
        assert result is not None
        out[side] = result
    return ChainPair(out["upper"], out["lower"], h_upper, h_lower, points,
                     time.process_time() - t0)


@dataclass
class PLDInterval:
    """A certified interval for eps(delta) (``target="epsilon"``) or delta(eps).

    ``lower <= exact <= upper`` where the exact value is that of the composed dominating
    pairs; ``float(x)`` and ``format(x, spec)`` give the upper end (the privacy bound),
    ``to_dict()`` every field as strings.
    """

    target: str
    given: mpf
    lower: mpf
    upper: mpf
    directions: list[dict[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    chains: list[ChainPair] = field(default_factory=list, repr=False)

    def delta_band(self, eps: object) -> tuple[mpf, mpf]:
        """Certified (lower, upper) of delta at another ``eps``, from the same chains."""
        e = Fraction(str(eps)) if not isinstance(eps, Fraction) else eps
        pairs = [_delta_of(c, e) for c in self.chains]
        return max(p[0] for p in pairs), max(p[1] for p in pairs)

    def delta_bands(self, eps: Sequence[object]) -> list[tuple[mpf, mpf]]:
        """:meth:`delta_band` at every eps of ``eps`` (one pass over each chain's masses)."""
        es = [Fraction(str(e)) if not isinstance(e, Fraction) else e for e in eps]
        per = [list(zip(c.lower.delta_bounds(es), c.upper.delta_bounds(es), strict=True))
               for c in self.chains]
        return [(max(p[i][0] for p in per), max(p[i][1] for p in per)) for i in range(len(es))]

    @property
    def width(self) -> mpf:
        return self.upper - self.lower

    def __float__(self) -> float:
        return float(self.upper)

    def __format__(self, spec: str) -> str:
        return format(float(self.upper), spec)

    def to_dict(self) -> dict[str, object]:
        from dpsym.balls import decimal_string

        key = "epsilon" if self.target == "epsilon" else "delta"
        return {f"{key}_lower": decimal_string(self.lower, 17, "down"),
                f"{key}_upper": decimal_string(self.upper, 17, "up"),
                "width": mpmath.nstr(self.width, 6),
                "directions": self.directions, "cpu_seconds": round(self.seconds, 3)}


def _eps_of(chains: ChainPair, delta: Fraction) -> tuple[mpf, mpf]:
    lo = chains.lower.epsilon_bound(delta)
    hi = chains.upper.epsilon_bound(delta)
    return max(lo, mpf(0)), max(hi, mpf(0))


def _delta_of(chains: ChainPair, eps: Fraction) -> tuple[mpf, mpf]:
    return chains.lower.delta_bound(eps), chains.upper.delta_bound(eps)


def _refine(h: Fraction, width: float, target: float) -> Fraction:
    if not math.isfinite(width) or width <= 0:
        return _grid_step(float(h) / 2)
    # the width shrinks like h^2 to h^2.8 in practice: aim a little above the target
    factor = min(0.7, 0.9 * (target / width) ** (1 / 2.2))
    return _grid_step(float(h) * max(factor, 0.1))


def _certify(
    scenarios: Sequence[Scenario], target: str, given: Fraction, width: float,
    relative: bool, h0: float, max_points: int, progress: Callable[[str], None] | None,
) -> PLDInterval:
    t0 = time.process_time()
    n = len(scenarios)
    hs = [_grid_step(h0)] * n
    # room above the bulk of the composed loss: at least to eps + 2 for a delta query
    extra = [2.0 if target == "epsilon" else float(given) + 2.0] * n
    widened = [False] * n
    res: list[tuple[mpf, mpf] | None] = [None] * n
    kept: list[ChainPair | None] = [None] * n
    info: list[dict[str, str]] = [{} for _ in range(n)]
    todo = set(range(n))
    # mass left outside the factors' ranges moves delta by at most ``tail`` (upper chain)
    tail = max(min(float(given) * 1e-6, 1e-12), 1e-60) if target == "epsilon" else 1e-30
    for _round in range(40):
        for d in sorted(todo):
            size_est = None
            chains = compose_scenario(scenarios[d], hs[d], tail=tail, extra_hi=extra[d])
            size_est = chains.points
            r = _eps_of(chains, given) if target == "epsilon" else _delta_of(chains, given)
            # the mass sent to +inf counts fully in the upper chain: keep it negligible
            limit = (float(given) * 1e-3 if target == "epsilon"
                     else max(float(r[1]) * width * 0.1, 1e-300))
            widened[d] = float(chains.upper.inf) > limit
            res[d] = r
            kept[d] = chains
            info[d] = {"h_lower": str(chains.h_lower), "h_upper": str(chains.h_upper),
                       "grid_points": str(size_est), "lower": mpmath.nstr(r[0], 12),
                       "upper": mpmath.nstr(r[1], 12),
                       "cpu_seconds": f"{chains.seconds:.2f}"}
            if progress is not None:
                progress(f"direction {d + 1}/{n}: h={float(hs[d]):.2e}, "
                         f"[{mpmath.nstr(r[0], 8)}, {mpmath.nstr(r[1], 8)}], "
                         f"{size_est} points, {chains.seconds:.1f} s")
        lo = max(r[0] for r in res if r is not None)
        hi = max(r[1] for r in res if r is not None)
        goal = width * float(hi) if relative else width
        if hi - lo <= goal:
            with mpmath.workdps(50):  # a record of the given value, whatever the context
                shown = mpf(given.numerator) / given.denominator
            return PLDInterval(target, shown, lo, hi,
                               info, time.process_time() - t0,
                               [c for c in kept if c is not None])
        todo = set()
        for d, r in enumerate(res):
            assert r is not None
            if r[1] < lo:
                continue  # this direction cannot be the maximum
            if r[1] == mpmath.inf or widened[d]:
                # too much mass went to +inf: widen the window, keep the grid
                extra[d] = max(2 * extra[d], 1.5 * float(r[0]) + 2 if target == "epsilon"
                               else extra[d])
                todo.add(d)
                continue
            w_d = float(r[1] - r[0])
            if w_d <= goal:
                continue
            new_h = _refine(hs[d], w_d, goal)
            est_points = int(info[d]["grid_points"]) * float(hs[d] / new_h)
            if est_points > max_points:
                raise HypothesisError(
                    "width", width,
                    f"a reachable width within max_points={max_points} grid points (the "
                    f"interval is [{mpmath.nstr(lo, 10)}, {mpmath.nstr(hi, 10)}] at "
                    f"{info[d]['grid_points']} points; ask for a wider interval)", REF)
            hs[d] = new_h
            todo.add(d)
        if not todo:  # every direction is narrow enough but their max is not: refine all
            hs = [_refine(h, 2 * goal, goal) for h in hs]
            todo = set(range(n))
    raise ArithmeticError("PLD refinement did not converge")  # pragma: no cover


def certify_epsilon(
    scenarios: Sequence[Scenario], delta: object, width: float = 1e-3, h0: float = 4e-3,
    max_points: int = 1 << 22, progress: Callable[[str], None] | None = None,
) -> PLDInterval:
    """A certified interval of width <= ``width`` for eps(delta) of max over scenarios.

    >>> from fractions import Fraction
    >>> from dpsym.pld import Factor, GaussianPair, certify_epsilon
    >>> from dpsym.fdp import gdp_epsilon
    >>> iv = certify_epsilon([[Factor(GaussianPair(Fraction(3, 10)), 16)]], "1e-5", width=1e-3)
    >>> exact = gdp_epsilon("1.2", "1e-5", dps=20)   # G(0.3)^(x)16 = G(1.2)
    >>> bool(iv.lower <= exact <= iv.upper and iv.width <= 1e-3)
    True
    """
    d = Fraction(str(delta)) if not isinstance(delta, Fraction) else delta
    require(0 < d < 1, "delta", delta, "0 < delta < 1", REF)
    require(width > 0, "width", width, "width > 0", REF)
    return _certify(scenarios, "epsilon", d, width, False, h0, max_points, progress)


def certify_delta(
    scenarios: Sequence[Scenario], eps: object, rel_width: float = 1e-2, h0: float = 4e-3,
    max_points: int = 1 << 22, progress: Callable[[str], None] | None = None,
) -> PLDInterval:
    """A certified interval for delta(eps), of width <= ``rel_width`` times its upper end."""
    e = Fraction(str(eps)) if not isinstance(eps, Fraction) else eps
    require(e >= 0, "eps", eps, "eps >= 0", REF)
    require(rel_width > 0, "rel_width", rel_width, "rel_width > 0", REF)
    return _certify(scenarios, "delta", e, rel_width, True, h0, max_points, progress)
