"""f-DP and Gaussian DP: tradeoff functions, composition, conversions (DRS22; Bok et al. 2024)."""

from dpsym.fdp.clt import clt_K, clt_K_series, clt_mu
from dpsym.fdp.gdp import compose_gdp, gdp_delta, gdp_epsilon, gdp_mu_from_epsilon_delta, gdp_to_rdp
from dpsym.fdp.tradeoff import (
    EpsDelta,
    Gaussian,
    PiecewiseLinear,
    TradeoffCheck,
    TradeoffFunction,
    check_tradeoff,
    dominates,
)

__all__ = [
    "EpsDelta",
    "Gaussian",
    "PiecewiseLinear",
    "TradeoffCheck",
    "TradeoffFunction",
    "check_tradeoff",
    "clt_K",
    "clt_K_series",
    "clt_mu",
    "compose_gdp",
    "dominates",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_mu_from_epsilon_delta",
    "gdp_to_rdp",
]
