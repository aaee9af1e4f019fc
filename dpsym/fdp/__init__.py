"""f-DP and Gaussian DP: tradeoff functions, composition, conversions (DRS22; Bok et al. 2024).

Names are resolved on first use (sympy, needed by :mod:`dpsym.fdp.clt` and
:mod:`dpsym.fdp.symbolic`, is imported only when those are).
"""

from __future__ import annotations

import importlib

_LAZY = {
    "clt_K": "dpsym.fdp.clt",
    "clt_K_series": "dpsym.fdp.clt",
    "clt_mu": "dpsym.fdp.clt",
    "compose_gdp": "dpsym.fdp.gdp",
    "gdp_delta": "dpsym.fdp.gdp",
    "gdp_epsilon": "dpsym.fdp.gdp",
    "gdp_mu_from_epsilon_delta": "dpsym.fdp.gdp",
    "gdp_to_rdp": "dpsym.fdp.gdp",
    "EpsDelta": "dpsym.fdp.tradeoff",
    "Gaussian": "dpsym.fdp.tradeoff",
    "PiecewiseLinear": "dpsym.fdp.tradeoff",
    "TradeoffCheck": "dpsym.fdp.tradeoff",
    "TradeoffFunction": "dpsym.fdp.tradeoff",
    "check_tradeoff": "dpsym.fdp.tradeoff",
    "dominates": "dpsym.fdp.tradeoff",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> object:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'dpsym.fdp' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
