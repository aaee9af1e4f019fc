"""dpsym: symbolic-numeric verification of the privacy theory of noisy gradient methods.

Top-level re-exports of the functions most users need; everything else lives in the
concept modules (:mod:`dpsym.numerics`, :mod:`dpsym.fdp`, :mod:`dpsym.rdp`, :mod:`dpsym.pld`,
:mod:`dpsym.accounting`), the paper modules (:mod:`dpsym.papers`) and the ledger
(:mod:`dpsym.claims`).  The re-exports are resolved on first use, so ``import dpsym`` does
not import sympy, numpy or mpmath.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_LAZY = {
    "HypothesisError": "dpsym.errors",
    "compose_gdp": "dpsym.fdp.gdp",
    "gdp_delta": "dpsym.fdp.gdp",
    "gdp_epsilon": "dpsym.fdp.gdp",
    "gdp_to_rdp": "dpsym.fdp.gdp",
    "nstr": "dpsym.numerics",
    "poisson_gaussian_rdp": "dpsym.rdp.subsampled_gaussian",
    "rdp_to_delta": "dpsym.rdp.conversions",
    "rdp_to_epsilon": "dpsym.rdp.conversions",
}

__all__ = ["__version__", *sorted(_LAZY)]


def __getattr__(name: str) -> object:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'dpsym' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
