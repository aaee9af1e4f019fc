"""Privacy events: frozen records that describe what a training run released, nothing more.

Modelled on the split of Google's ``dp_accounting`` (``dp_event.py``): an event states a
mechanism's mathematics exactly and carries no arithmetic; accountants
(:mod:`dpsym.accounting.accountants`) consume events.  Numbers are stored exactly (ints and
``Fraction``; floats are converted to their exact binary value, decimal strings to exact
decimals), so an event is hashable and two equal descriptions are equal records.

**Conventions.**  Gradients are clipped to norm C and the noise multiplier sigma is the
noise standard deviation divided by C, added to the *sum* of the clipped gradients of a
batch.  Under add/remove adjacency one example moves that sum by at most C; under
replace-one by at most 2C (its gradient g becomes some g' with |g - g'| <= 2C).  dpsym
keeps this meaning of sigma for every sampling scheme.  Some references state fixed-size
and replace-one results for a sensitivity-C sum (dp-accounting's
``SampledWithoutReplacementDpEvent`` with ``REPLACE_ONE``, Wang, Balle & Kasiviswanathan
2019): their noise multiplier z corresponds to sigma = 2 z here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dpsym.errors import require, require_integer
from dpsym.rdp.arb_series import exact_fraction

__all__ = [
    "ComposedEvent",
    "DpEvent",
    "FixedSizeSampledEvent",
    "GaussianEvent",
    "PoissonSampledEvent",
    "SelfComposedEvent",
    "flatten",
    "from_dp_accounting",
]

REF = "dpsym.accounting.events"


class DpEvent:
    """Base class of the event records."""


def _set(obj: object, name: str, value: object) -> None:
    object.__setattr__(obj, name, value)


@dataclass(frozen=True)
class GaussianEvent(DpEvent):
    """Release f(D) + N(0, sigma^2 C^2 I) for a sum f of gradients clipped to norm C.

    Add/remove adjacency: the dominating pair is (N(1, sigma^2), N(0, sigma^2)), i.e.
    1/sigma-GDP (Dong, Roth & Su 2022, Thm 2.7) and (alpha, alpha/(2 sigma^2))-RDP
    (Mironov 2017, Prop. 7).  Replace-one: the mean moves by up to 2, i.e. 2/sigma-GDP and
    (alpha, 2 alpha/sigma^2)-RDP.
    """

    noise_multiplier: Fraction

    def __post_init__(self) -> None:
        s = exact_fraction(self.noise_multiplier, "noise_multiplier", REF)
        require(s > 0, "noise_multiplier", self.noise_multiplier, "sigma > 0", REF)
        _set(self, "noise_multiplier", s)


@dataclass(frozen=True)
class PoissonSampledEvent(DpEvent):
    """Run ``event`` on a batch that contains each example independently with probability
    ``sampling_probability`` = q (Poisson sampling; Mironov, Talwar & Zhang 2019).

    For a Gaussian ``event``: add/remove is dominated by the pairs
    ((1-q) N(0,s^2) + q N(1,s^2), N(0,s^2)) ("remove") and its reverse ("add"), tight
    (Zhu, Dong & Wang 2022, Sec. 5); its RDP is Mironov et al.'s A_alpha.
    """

    sampling_probability: Fraction
    event: DpEvent

    def __post_init__(self) -> None:
        q = exact_fraction(self.sampling_probability, "sampling_probability", REF)
        require(0 <= q <= 1, "sampling_probability", self.sampling_probability,
                "0 <= q <= 1", REF)
        require(isinstance(self.event, DpEvent), "event", self.event, "a DpEvent", REF)
        _set(self, "sampling_probability", q)


@dataclass(frozen=True)
class FixedSizeSampledEvent(DpEvent):
    """Run ``event`` on a batch of exactly ``batch_size`` = |B| of the ``dataset_size`` = |D|
    examples, drawn uniformly without replacement (``replacement=False``, FSwoR) or as |B|
    independent uniform indices (``replacement=True``, FSwR); q = |B|/|D| (Birrell, Ebrahimi,
    Behnia & Pacheco 2024, Sec. 3).  Its RDP bounds are Birrell et al.'s Thms 3.1-3.6.
    """

    dataset_size: int
    batch_size: int
    event: DpEvent
    replacement: bool = False

    def __post_init__(self) -> None:
        n = require_integer("dataset_size", self.dataset_size, REF, minimum=2)
        b = require_integer("batch_size", self.batch_size, REF, minimum=1)
        require(b < n, "batch_size", b, f"batch_size < dataset_size = {n}", REF)
        require(isinstance(self.event, DpEvent), "event", self.event, "a DpEvent", REF)
        require(isinstance(self.replacement, bool), "replacement", self.replacement,
                "a bool", REF)
        _set(self, "dataset_size", n)
        _set(self, "batch_size", b)

    @property
    def q(self) -> Fraction:
        return Fraction(self.batch_size, self.dataset_size)


@dataclass(frozen=True)
class SelfComposedEvent(DpEvent):
    """``event`` run ``count`` times (adaptively), e.g. the steps of one training phase."""

    event: DpEvent
    count: int

    def __post_init__(self) -> None:
        require(isinstance(self.event, DpEvent), "event", self.event, "a DpEvent", REF)
        _set(self, "count", require_integer("count", self.count, REF, minimum=0))


@dataclass(frozen=True)
class ComposedEvent(DpEvent):
    """The events of ``events`` run one after the other (heterogeneous phases)."""

    events: tuple[DpEvent, ...]

    def __post_init__(self) -> None:
        evs = tuple(self.events)
        for e in evs:
            require(isinstance(e, DpEvent), "events", e, "a sequence of DpEvent", REF)
        _set(self, "events", evs)


def flatten(event: DpEvent, count: int = 1) -> list[tuple[DpEvent, int]]:
    """The leaf events of a composition with their multiplicities (order kept, merged)."""
    out: dict[DpEvent, int] = {}

    def walk(e: DpEvent, c: int) -> None:
        if isinstance(e, SelfComposedEvent):
            walk(e.event, c * e.count)
        elif isinstance(e, ComposedEvent):
            for sub in e.events:
                walk(sub, c)
        elif c > 0:
            out[e] = out.get(e, 0) + c

    walk(event, count)
    return list(out.items())


def from_dp_accounting(event: object) -> DpEvent:
    """The dpsym event for a ``dp_accounting.dp_event`` record (dp-accounting installed).

    Supported: GaussianDpEvent, PoissonSampledDpEvent, SampledWithoutReplacementDpEvent,
    SampledWithReplacementDpEvent, SelfComposedDpEvent, ComposedDpEvent, NoOpDpEvent.  The
    noise multiplier is copied as is (see the module docstring for the sigma convention).
    """
    try:
        from dp_accounting import dp_event as de
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("from_dp_accounting needs dp-accounting (the [crosscheck] extra)"
                          ) from None
    if isinstance(event, de.GaussianDpEvent):
        return GaussianEvent(event.noise_multiplier)
    if isinstance(event, de.PoissonSampledDpEvent):
        return PoissonSampledEvent(event.sampling_probability,
                                   from_dp_accounting(event.event))
    if isinstance(event, de.SampledWithoutReplacementDpEvent):
        return FixedSizeSampledEvent(event.source_dataset_size, event.sample_size,
                                     from_dp_accounting(event.event), replacement=False)
    if isinstance(event, de.SampledWithReplacementDpEvent):
        return FixedSizeSampledEvent(event.source_dataset_size, event.sample_size,
                                     from_dp_accounting(event.event), replacement=True)
    if isinstance(event, de.SelfComposedDpEvent):
        return SelfComposedEvent(from_dp_accounting(event.event), event.count)
    if isinstance(event, de.ComposedDpEvent):
        return ComposedEvent(tuple(from_dp_accounting(e) for e in event.events))
    if isinstance(event, de.NoOpDpEvent):
        return ComposedEvent(())
    require(False, "event", type(event).__name__, "a dp_accounting event dpsym supports "
            "(Gaussian, PoissonSampled, SampledWith(out)Replacement, SelfComposed, Composed, "
            "NoOp)", REF)
    raise AssertionError  # pragma: no cover
