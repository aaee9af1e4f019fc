"""Timings quoted in the README: dpsym at stated precision next to a float64 peer, same run.

Usage: python scripts/bench.py   (dp-accounting is timed too when it is importable;
install the [crosscheck] extra for that).  Prints one line per measurement.
"""

from __future__ import annotations

import time
from collections.abc import Callable

ORDERS = [1 + x / 10 for x in range(1, 11)] + list(range(3, 93))  # 100 orders


def best_of(fn: Callable[[], object], n: int = 3) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    from dpsym import gdp_epsilon, poisson_gaussian_rdp

    print(f"gdp_epsilon(mu=1, delta=1e-5, dps=50): {best_of(lambda: gdp_epsilon(1, '1e-5')):.4f} s")
    print(f"gdp_epsilon(mu=50, delta=1e-100, dps=50): "
          f"{best_of(lambda: gdp_epsilon(50, '1e-100')):.4f} s")

    def ours() -> list:
        return [poisson_gaussian_rdp("0.01", 1, repr(a), dps=30) for a in ORDERS]

    print(f"dpsym Poisson RDP, 100 orders (10 fractional), q=0.01, sigma=1, dps=30: "
          f"{best_of(ours, 1):.2f} s")
    ints = list(range(2, 102))
    print(f"dpsym Poisson RDP, 100 integer orders 2..101, dps=30: "
          f"{best_of(lambda: [poisson_gaussian_rdp('0.01', 1, a, dps=30) for a in ints], 1):.2f} s")
    try:
        from dp_accounting.rdp.rdp_privacy_accountant import (
            _compute_rdp_poisson_subsampled_gaussian as peer,
        )
    except ImportError:
        print("dp-accounting not installed: peer timing skipped")
        return
    import importlib.metadata

    v = importlib.metadata.version("dp-accounting")
    print(f"dp-accounting {v} float64, same 100 orders: "
          f"{best_of(lambda: peer(q=0.01, noise_multiplier=1.0, orders=ORDERS), 5):.4f} s")


if __name__ == "__main__":
    main()
