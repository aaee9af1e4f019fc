"""Renyi DP: subsampled Gaussian mechanisms and RDP <-> (eps, delta) conversions."""

from dpsym.rdp.subsampled_gaussian import poisson_gaussian_rdp, poisson_gaussian_rdp_curve

__all__ = ["poisson_gaussian_rdp", "poisson_gaussian_rdp_curve"]
