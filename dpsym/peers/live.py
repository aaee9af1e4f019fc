"""The installed peer accountants, run on a user's own DP-SGD run (``dpsym compare``).

Each peer is imported only when asked for and only if installed (``pip install -e
.[crosscheck]``); a peer that is absent is reported as such, never an error.  Every value
is the peer's float64 eps at the user's delta for ``steps`` Poisson-subsampled Gaussian
steps (add/remove adjacency), with the method it uses:

* dp-accounting: ``RdpAccountant`` (RDP, its default orders) and ``PLDAccountant`` (PLD,
  pessimistic);
* Opacus: ``RDPAccountant``, ``PRVAccountant`` (upper end, eps_error 0.01) and
  ``GaussianAccountant`` (the Poisson CLT: an approximation, not a bound);
* prv-accountant: ``PRVAccountant`` (upper end of its interval, eps_error 0.01);
* autodp: ``SubsampleGaussianMechanism`` (RDP with its improved amplification bound).

The peers' values are shown, never trusted: :mod:`dpsym.peers.audit` says where each is
off, and by how much.
"""

from __future__ import annotations

import importlib.metadata as md
import importlib.util
import warnings
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["PEERS", "PeerValue", "available", "compare_run"]

#: Distribution name -> importable module.
PEERS = {"dp-accounting": "dp_accounting", "opacus": "opacus",
         "prv-accountant": "prv_accountant", "autodp": "autodp"}


@dataclass(frozen=True)
class PeerValue:
    """One peer's eps for the run (``None`` with ``error`` when it failed)."""

    library: str
    version: str
    method: str
    epsilon: float | None
    error: str | None = None
    bound: bool = True  # False for an approximation (the CLT)


def available() -> dict[str, str | None]:
    """Peer -> installed version, or None when it is not installed."""
    out: dict[str, str | None] = {}
    for dist, module in PEERS.items():
        try:
            out[dist] = md.version(dist) if importlib.util.find_spec(module) else None
        except (md.PackageNotFoundError, ValueError, ImportError):
            out[dist] = None
    return out


def _dp_accounting(q: float, sigma: float, steps: int, delta: float
                   ) -> list[tuple[str, Callable[[], float], bool]]:
    import dp_accounting
    from dp_accounting.pld import pld_privacy_accountant
    from dp_accounting.rdp import rdp_privacy_accountant

    def event() -> object:
        return dp_accounting.SelfComposedDpEvent(
            dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)

    return [
        ("RDP (RdpAccountant, default orders)",
         lambda: rdp_privacy_accountant.RdpAccountant().compose(event()).get_epsilon(delta),
         True),
        ("PLD (PLDAccountant, pessimistic)",
         lambda: pld_privacy_accountant.PLDAccountant().compose(event()).get_epsilon(delta),
         True),
    ]


def _opacus(q: float, sigma: float, steps: int, delta: float
            ) -> list[tuple[str, Callable[[], float], bool]]:
    from opacus.accountants import GaussianAccountant, PRVAccountant, RDPAccountant

    def run(cls: type) -> float:
        acc = cls()
        acc.history = [(sigma, q, steps)]
        return acc.get_epsilon(delta=delta)

    return [("RDP (RDPAccountant)", lambda: run(RDPAccountant), True),
            ("PRV (PRVAccountant, upper end)", lambda: run(PRVAccountant), True),
            ("GDP (GaussianAccountant: CLT approximation)", lambda: run(GaussianAccountant),
             False)]


def _prv(q: float, sigma: float, steps: int, delta: float
         ) -> list[tuple[str, Callable[[], float], bool]]:
    import prv_accountant

    def run() -> float:
        acc = prv_accountant.PRVAccountant(
            prvs=[prv_accountant.PoissonSubsampledGaussianMechanism(
                sampling_probability=q, noise_multiplier=sigma)],
            max_self_compositions=[steps], eps_error=0.01, delta_error=delta / 1000)
        return acc.compute_epsilon(delta=delta, num_self_compositions=[steps])[2]

    return [("PRV (PRVAccountant, upper end)", run, True)]


def _autodp(q: float, sigma: float, steps: int, delta: float
            ) -> list[tuple[str, Callable[[], float], bool]]:
    from autodp.mechanism_zoo import SubsampleGaussianMechanism

    return [("RDP (SubsampleGaussianMechanism)",
             lambda: SubsampleGaussianMechanism({"prob": q, "sigma": sigma, "coeff": steps})
             .get_approxDP(delta), True)]


_RUNNERS = {"dp-accounting": _dp_accounting, "opacus": _opacus, "prv-accountant": _prv,
            "autodp": _autodp}


def compare_run(q: float, sigma: float, steps: int, delta: float,
                peers: tuple[str, ...] | None = None) -> list[PeerValue]:
    """eps of each installed peer (of ``peers``, default all) for the run; absent peers are
    left out (see :func:`available`)."""
    versions = available()
    out = []
    for dist in peers or tuple(PEERS):
        if dist not in PEERS:
            raise ValueError(f"peers={dist!r} violates peer in {tuple(PEERS)} "
                             "(dpsym.peers.live)")
        if versions[dist] is None:
            continue
        try:
            methods = _RUNNERS[dist](q, sigma, steps, delta)
        except Exception as exc:  # a peer that does not import is reported, not fatal
            out.append(PeerValue(dist, versions[dist], "(import)", None,
                                 f"{type(exc).__name__}: {exc}"))
            continue
        for method, fn, bound in methods:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    value = float(fn())
                out.append(PeerValue(dist, versions[dist], method, value, None, bound))
            except Exception as exc:  # the error is the peer's answer, shown as such
                out.append(PeerValue(dist, versions[dist], method, None,
                                     f"{type(exc).__name__}: {exc}", bound))
    return out
