"""Renyi DP: subsampled Gaussian mechanisms and RDP <-> (eps, delta) conversions."""

from dpsym.rdp.arb_series import HAVE_FLINT, RdpEnclosure
from dpsym.rdp.subsampled_gaussian import (
    poisson_gaussian_rdp,
    poisson_gaussian_rdp_curve,
    poisson_gaussian_rdp_enclosures,
)

__all__ = [
    "HAVE_FLINT",
    "RdpEnclosure",
    "poisson_gaussian_rdp",
    "poisson_gaussian_rdp_curve",
    "poisson_gaussian_rdp_enclosures",
]
