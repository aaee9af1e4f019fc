"""dpsym: symbolic-numeric verification of the privacy theory of noisy gradient methods.

Top-level re-exports of the functions most users need; everything else lives in the
concept modules (:mod:`dpsym.numerics`, :mod:`dpsym.fdp`, :mod:`dpsym.rdp`), the paper
modules (:mod:`dpsym.papers`) and the ledger (:mod:`dpsym.claims`).
"""

from dpsym.errors import HypothesisError
from dpsym.fdp import compose_gdp, gdp_delta, gdp_epsilon, gdp_to_rdp
from dpsym.numerics import nstr
from dpsym.rdp import poisson_gaussian_rdp
from dpsym.rdp.conversions import rdp_to_delta, rdp_to_epsilon

__version__ = "0.1.0"

__all__ = [
    "HypothesisError",
    "__version__",
    "compose_gdp",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_to_rdp",
    "nstr",
    "poisson_gaussian_rdp",
    "rdp_to_delta",
    "rdp_to_epsilon",
]
