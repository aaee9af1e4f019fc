"""A privacy accountant for users: describe a training run, then account for it.

Following the design of Google's ``dp_accounting``, a run is a small frozen record whose
docstring states its mathematics (:class:`PoissonSampledGaussian`, :class:`GaussianDP`),
and accounting is a separate layer (:func:`rdp_account`, :func:`gdp_account`) that
consumes it.  Every number is an mpf at the requested precision; the reported eps (or
delta) is an upper bound, rounded up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mpmath import mpf

from dpsym.errors import require
from dpsym.fdp import gdp_delta, gdp_epsilon
from dpsym.numerics import Number, precision, to_mpf
from dpsym.rdp.conversions import (
    CONVERSIONS,
    REFERENCES,
    optimize_order,
    rdp_to_delta,
    rdp_to_epsilon,
)
from dpsym.rdp.subsampled_gaussian import poisson_gaussian_rdp

__all__ = [
    "DEFAULT_ORDERS",
    "AccountingReport",
    "GaussianDP",
    "PoissonSampledGaussian",
    "gdp_account",
    "rdp_account",
]

#: Default Renyi orders: a few fractional ones near 1 (evaluated by quadrature), every
#: integer to 64 (exact binomial sums), then a sparse tail to 1024.
DEFAULT_ORDERS: tuple[Number, ...] = (
    "1.25", "1.5", "1.75", *range(2, 65), 80, 96, 128, 256, 512, 1024,
)


@dataclass(frozen=True)
class PoissonSampledGaussian:
    """``steps`` rounds of DP-SGD with Poisson sampling and the Gaussian mechanism.

    Each round includes every example independently with probability ``q``, clips
    per-example gradients to norm 1 and adds N(0, sigma^2 I).  Under add/remove
    adjacency, one round is (alpha, eps(alpha))-RDP with eps(alpha) of Mironov, Talwar &
    Zhang 2019 (:func:`dpsym.rdp.poisson_gaussian_rdp`); rounds compose additively.
    """

    q: Number
    sigma: Number
    steps: int = 1

    def rdp(self, alpha: Number, dps: int = 30) -> mpf:
        return poisson_gaussian_rdp(self.q, self.sigma, alpha, steps=self.steps, dps=dps)


@dataclass(frozen=True)
class GaussianDP:
    """A mu-GDP mechanism (Dong, Roth & Su 2022); e.g. ``steps`` full-batch Gaussian steps
    of sensitivity/sigma = m compose to mu = m sqrt(steps)."""

    mu: Number


@dataclass
class AccountingReport:
    """What an accountant found.

    ``target`` is ``"epsilon"`` (given delta) or ``"delta"`` (given eps); ``value`` the
    bound; ``order`` the best Renyi order (None for GDP); ``rdp`` the composed RDP per
    order; ``alternatives`` maps every other conversion to its (value, order).
    """

    target: str
    value: mpf
    given: mpf
    conversion: str
    order: mpf | None = None
    rdp: list[tuple[mpf, mpf]] = field(default_factory=list)
    alternatives: dict[str, tuple[mpf, mpf | None]] = field(default_factory=dict)
    mechanism: dict[str, str] = field(default_factory=dict)
    dps: int = 30


def _given(delta: Number | None, eps: Number | None, dps: int) -> mpf:
    with precision(dps):
        return +to_mpf(delta if delta is not None else eps, "delta" if delta is not None else "eps")


def _target(delta: Number | None, eps: Number | None) -> str:
    require((delta is None) != (eps is None), "delta/eps", f"delta={delta}, eps={eps}",
            "exactly one of --delta and --eps", "dpsym account")
    return "epsilon" if delta is not None else "delta"


def rdp_account(
    event: PoissonSampledGaussian,
    delta: Number | None = None,
    eps: Number | None = None,
    orders: Sequence[Number] = DEFAULT_ORDERS,
    conversion: str = "balle2020",
    dps: int = 30,
    continuous: bool = False,
) -> AccountingReport:
    """eps at ``delta`` (or delta at ``eps``) of a run, by RDP and ``conversion``.

    The RDP of every order is computed once; each conversion of
    :data:`dpsym.rdp.conversions.CONVERSIONS` is reported alongside.  With
    ``continuous=True`` (target epsilon only) the order is also optimised over real
    alpha and the better of grid and continuous optimum is reported.
    """
    target = _target(delta, eps)
    require(conversion in CONVERSIONS, "conversion", conversion,
            f"one of {', '.join(CONVERSIONS)}", "dpsym account")
    rdp = [event.rdp(a, dps=dps) for a in orders]
    with precision(dps):
        alphas = [to_mpf(a, "order") for a in orders]

    def convert(conv: str) -> tuple[mpf, mpf]:
        if target == "epsilon":
            return rdp_to_epsilon(alphas, rdp, delta, conversion=conv, dps=dps)
        return rdp_to_delta(alphas, rdp, eps, conversion=conv, dps=dps)

    results = {c: convert(c) for c in CONVERSIONS}
    value, order = results[conversion]
    if continuous and target == "epsilon":
        v, a = optimize_order(lambda al, d: event.rdp(al, dps=d), delta, conversion, dps=dps)
        if v < value:
            value, order = v, a
    return AccountingReport(
        target=target,
        value=value,
        given=_given(delta, eps, dps),
        conversion=conversion,
        order=order,
        rdp=list(zip(alphas, rdp, strict=True)),
        alternatives={c: r for c, r in results.items() if c != conversion},
        mechanism={"type": "poisson_subsampled_gaussian", "q": str(event.q),
                   "sigma": str(event.sigma), "steps": str(event.steps),
                   "adjacency": "add/remove", "reference": REFERENCES[conversion]},
        dps=dps,
    )


def gdp_account(
    event: GaussianDP, delta: Number | None = None, eps: Number | None = None, dps: int = 30
) -> AccountingReport:
    """eps at ``delta`` (or delta at ``eps``) of a mu-GDP run, by the exact Lemma A.3 curve."""
    target = _target(delta, eps)
    if target == "epsilon":
        value = gdp_epsilon(event.mu, delta, dps=dps)
    else:
        value = gdp_delta(event.mu, eps, dps=dps)
    return AccountingReport(
        target=target,
        value=value,
        given=_given(delta, eps, dps),
        conversion="gdp_exact",
        mechanism={"type": "gaussian_dp", "mu": str(event.mu),
                   "reference": "Dong, Roth & Su 2022, Cor. 2.13"},
        dps=dps,
    )
