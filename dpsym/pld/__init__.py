"""Certified privacy-loss-distribution accounting: pairs, grid measures, composition.

* :mod:`dpsym.pld.pairs`   privacy-loss pairs described by their tails (Gaussian, Poisson
  subsampled Gaussian in both add/remove directions, replace-one).
* :mod:`dpsym.pld.grid`    upper/lower grid measures in the delta-dominance order, exact
  integer convolution.
* :mod:`dpsym.pld.compose` certified (lower, upper) intervals for eps(delta) and delta(eps)
  of a heterogeneous composition, with a user-set width.
"""

from dpsym.pld.compose import Factor, PLDInterval, certify_delta, certify_epsilon, compose_scenario
from dpsym.pld.pairs import (
    GaussianPair,
    LossPair,
    PoissonSubsampledGaussianPair,
    ReplaceOnePoissonGaussianPair,
)

__all__ = [
    "Factor",
    "GaussianPair",
    "LossPair",
    "PLDInterval",
    "PoissonSubsampledGaussianPair",
    "ReplaceOnePoissonGaussianPair",
    "certify_delta",
    "certify_epsilon",
    "compose_scenario",
]
