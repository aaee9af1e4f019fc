"""Record float64 peer-library RDP values of the Poisson-subsampled Gaussian.

Mechanism: one step of the Poisson-subsampled Gaussian mechanism
(Mironov, Talwar & Zhang 2019), add/remove adjacency, L2 sensitivity 1,
noise standard deviation ``sigma``.  Every value is produced by ``eval`` of the
exact expression stored next to it in the JSON ``call`` field.

This script is NOT part of the dpsym test run.  Run it in a separate
virtualenv outside the repository, from the repository root::

    python3 -m venv /tmp/peers
    /tmp/peers/bin/pip install dp-accounting autodp prv-accountant mpmath
    /tmp/peers/bin/python tests/reference/make_peer_poisson_rdp.py

It (re)writes ``dpsym/data/peer_poisson_rdp.json`` (package data, read by the tour).
opacus is not covered: it cannot be imported without torch.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import platform
import signal
import time
from pathlib import Path
from types import FrameType
from typing import Any

import autodp.mechanism_zoo
import dp_accounting
import dp_accounting.rdp.rdp_privacy_accountant
import prv_accountant
import prv_accountant.other_accountants

OUTPUT = Path(__file__).resolve().parents[2] / "dpsym" / "data" / "peer_poisson_rdp.json"
GENERATED = "2026-11-22"

QS = [1e-7, 1e-3, 0.01, 0.1]
SIGMAS = [0.1, 0.5, 1.0, 2.0, 10.0, 100.0]
ALPHAS = [1.5, 2.0, 3.0, 10.0, 10.5, 32.0, 64.0, 256.0, 1024.0]

# Per-call wall-clock limit: prv-accountant's fractional-order series has no
# iteration cap and may not terminate for some parameters.
TIMEOUT_SECONDS = 10.0

TIMING_Q = 0.01
TIMING_SIGMA = 1.0
TIMING_REPEATS = 5
TIMING_ORDERS_SRC = "[1 + x / 10 for x in range(1, 11)] + list(range(3, 93))"

# (library, distribution name, template for one order, template for TIMING_ORDERS_SRC)
PEERS: list[tuple[str, str, str, str]] = [
    (
        "dp_accounting",
        "dp-accounting",
        "float(dp_accounting.rdp.RdpAccountant(orders=[{alpha!r}]).compose("
        "dp_accounting.PoissonSampledDpEvent({q!r}, "
        "dp_accounting.GaussianDpEvent({sigma!r}))).rdp[0])",
        "dp_accounting.rdp.RdpAccountant(orders={orders}).compose("
        "dp_accounting.PoissonSampledDpEvent({q!r}, "
        "dp_accounting.GaussianDpEvent({sigma!r}))).rdp",
    ),
    (
        "dp_accounting",
        "dp-accounting",
        "float(dp_accounting.rdp.rdp_privacy_accountant."
        "_compute_rdp_poisson_subsampled_gaussian("
        "q={q!r}, noise_multiplier={sigma!r}, orders=[{alpha!r}])[0])",
        "dp_accounting.rdp.rdp_privacy_accountant."
        "_compute_rdp_poisson_subsampled_gaussian("
        "q={q!r}, noise_multiplier={sigma!r}, orders={orders})",
    ),
    (
        "autodp",
        "autodp",
        "float(autodp.mechanism_zoo.SubsampleGaussianMechanism("
        "{{'prob': {q!r}, 'sigma': {sigma!r}, 'coeff': 1}}).get_RDP({alpha!r}))",
        "(lambda m: [m.get_RDP(a) for a in {orders}])("
        "autodp.mechanism_zoo.SubsampleGaussianMechanism("
        "{{'prob': {q!r}, 'sigma': {sigma!r}, 'coeff': 1}}))",
    ),
    (
        "prv_accountant",
        "prv-accountant",
        "float(prv_accountant.PoissonSubsampledGaussianMechanism("
        "sampling_probability={q!r}, noise_multiplier={sigma!r}).rdp({alpha!r}))",
        "prv_accountant.other_accountants.RDP("
        "[prv_accountant.PoissonSubsampledGaussianMechanism("
        "sampling_probability={q!r}, noise_multiplier={sigma!r})], "
        "orders={orders}).rdps[0]",
    ),
]

NAMESPACE: dict[str, Any] = {
    "autodp": autodp,
    "dp_accounting": dp_accounting,
    "prv_accountant": prv_accountant,
}


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise TimeoutError(f"no result within {TIMEOUT_SECONDS:g} s")


def evaluate(call: str) -> tuple[str | None, str | None]:
    """Evaluate ``call``; return (value string, error string)."""
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT_SECONDS)
    try:
        value = float(eval(call, NAMESPACE))
    except Exception as exc:  # every failure is recorded, none is fatal
        return None, f"{type(exc).__name__}: {exc}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
    if math.isnan(value):
        return "nan", None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf", None
    return repr(value), None


def best_time(call: str) -> float:
    """Best wall-clock time of ``TIMING_REPEATS`` evaluations of ``call``."""
    best = math.inf
    for _ in range(TIMING_REPEATS):
        start = time.perf_counter()
        eval(call, NAMESPACE)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    signal.signal(signal.SIGALRM, _on_alarm)
    versions = {
        dist: importlib.metadata.version(dist)
        for dist in ("dp-accounting", "autodp", "prv-accountant", "numpy", "scipy")
    }
    timings: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    for library, dist, one_order, all_orders in PEERS:
        call = all_orders.format(q=TIMING_Q, sigma=TIMING_SIGMA, orders=TIMING_ORDERS_SRC)
        timings.append(
            {
                "library": library,
                "call": call,
                "orders": len(eval(TIMING_ORDERS_SRC)),
                "q": TIMING_Q,
                "sigma": TIMING_SIGMA,
                "seconds": best_time(call),
            }
        )
        for q in QS:
            for sigma in SIGMAS:
                for alpha in ALPHAS:
                    call = one_order.format(q=q, sigma=sigma, alpha=alpha)
                    value, error = evaluate(call)
                    records.append(
                        {
                            "library": library,
                            "version": versions[dist],
                            "call": call,
                            "q": q,
                            "sigma": sigma,
                            "alpha": alpha,
                            "value": value,
                            "error": error,
                        }
                    )
    document = {
        "description": (
            "RDP epsilon(alpha) of ONE step of the Poisson-subsampled Gaussian "
            "mechanism (Mironov, Talwar & Zhang 2019), add/remove adjacency, "
            "L2 sensitivity 1, noise std sigma, as computed in float64 by peer "
            "libraries. 'value' is repr(float) or 'inf'/'nan'; 'error' holds "
            "the exception text when the call raised (or exceeded a "
            f"{TIMEOUT_SECONDS:g} s limit). autodp interpolates the CGF "
            "linearly between integer orders and returns the alpha=2 value "
            "for 1 <= alpha <= 2, so its fractional-order values are upper "
            "bounds, not the exact RDP. opacus omitted: it requires torch. "
            "Generated by make_peer_poisson_rdp.py."
        ),
        "generated": GENERATED,
        "python": platform.python_version(),
        "libraries": versions,
        "timings": timings,
        "records": records,
    }
    OUTPUT.write_text(json.dumps(document, indent=1) + "\n")


if __name__ == "__main__":
    main()
