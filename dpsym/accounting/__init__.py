"""Privacy accounting for users: events (what ran), accountants (what it cost), calibration.

* :mod:`dpsym.accounting.events`      frozen event records (Gaussian, Poisson-sampled,
  fixed-size-sampled, self-composed, composed) and the dp-accounting adapter;
* :mod:`dpsym.accounting.accountants` RDP (certified upper bound), PLD (certified interval)
  and GDP (exact or CLT) accountants with ``compose``/``get_epsilon``/``get_delta``;
* :mod:`dpsym.accounting.calibrate`   the smallest noise multiplier meeting a target eps;
* :mod:`dpsym.accounting.runs`        run records binding a DP-SGD run to its RDP bounds
  (used by the RDP accountant) and the GDP record.
"""

from dpsym.accounting.accountants import (
    DP_ACCOUNTING_ORDERS,
    DPSYM_DEFAULT_ORDERS,
    OPACUS_ORDERS,
    RELATIONS,
    GdpAccountant,
    PldAccountant,
    RdpAccountant,
    rdp_account,
)
from dpsym.accounting.calibrate import Calibration, calibrate_noise, poisson_run
from dpsym.accounting.events import (
    ComposedEvent,
    DpEvent,
    FixedSizeSampledEvent,
    GaussianEvent,
    PoissonSampledEvent,
    SelfComposedEvent,
    flatten,
    from_dp_accounting,
)
from dpsym.accounting.runs import (
    ADJACENCIES,
    DEFAULT_ORDERS,
    SAMPLINGS,
    TAYLOR_ORDERS,
    AccountingReport,
    FixedSizeSampledGaussian,
    GaussianDP,
    PoissonSampledGaussian,
    default_orders,
    gdp_account,
)

__all__ = [
    "ADJACENCIES",
    "DEFAULT_ORDERS",
    "DPSYM_DEFAULT_ORDERS",
    "DP_ACCOUNTING_ORDERS",
    "OPACUS_ORDERS",
    "RELATIONS",
    "SAMPLINGS",
    "TAYLOR_ORDERS",
    "AccountingReport",
    "Calibration",
    "ComposedEvent",
    "DpEvent",
    "FixedSizeSampledEvent",
    "FixedSizeSampledGaussian",
    "GaussianDP",
    "GaussianEvent",
    "GdpAccountant",
    "PldAccountant",
    "PoissonSampledEvent",
    "PoissonSampledGaussian",
    "RdpAccountant",
    "SelfComposedEvent",
    "calibrate_noise",
    "default_orders",
    "flatten",
    "from_dp_accounting",
    "gdp_account",
    "poisson_run",
    "rdp_account",
]
