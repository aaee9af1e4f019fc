"""Record peer-library compositions of Bok et al. 2024's C_p(G(mu)) (estimates, not truth).

Neither peer ships the symmetrised subsampling operator C_p(G(mu)) of Bok, Su & Altschuler
2024 (Def. 4.7); both compose a privacy-loss distribution given as a CDF.  This script gives
each library the PRV of Prop. D.4,

    F_Y(t) = p Phi(eps+/mu - mu/2) + (1 - p) Phi(eps+/mu + mu/2),   t >= 0  (atom included),
    F_Y(t) = Phi(-eps-/mu - mu/2),                                   t < 0,

eps+- = log((p - 1 + e^{+-t})/p) (the CDF made right-continuous at 0), and records:

* prv-accountant: ``PRVAccountant(prvs=[CpGaussianPRV(p, mu), ...], max_self_compositions=
  [...], eps_error=e, delta_error=1e-10, eps_max=...).compute_epsilon(delta, [...])``, its
  (lower, estimate, upper), with ``CpGaussianPRV`` the subclass of
  ``prv_accountant.privacy_random_variables.PrivacyRandomVariable`` defined below (cdf only)
  and ``prv_accountant.GaussianMechanism(noise_multiplier=1/b)`` for a G(b) factor;
* dp-accounting: ``PrivacyLossDistribution.create_from_rounded_probability(pmf, inf_mass,
  vdi, pessimistic_estimate=..., symmetric=True)`` with the pmf of Y rounded up (pessimistic)
  or down (optimistic) to multiples of ``vdi``, ``.self_compose(k)``, ``.compose(...)`` with
  ``from_gaussian_mechanism(1/b, value_discretization_interval=vdi)`` for a G(b) factor, then
  ``.get_epsilon_for_delta(delta)``; pessimistic and optimistic bracket the value.

Each record has the library, version, the call, the CPU seconds.  dpsym's tests check that
its certified interval contains the peers' estimates; the peers are never used as the truth.

NOT part of the test run.  In a separate virtualenv, from the repository root::

    python3 -m venv /work/wt/peers11-venv
    /work/wt/peers11-venv/bin/pip install dp-accounting==0.6.0 prv-accountant==0.2.0
    /work/wt/peers11-venv/bin/python tests/reference/make_peer_cp_gaussian.py

It (re)writes ``tests/reference/peer_cp_gaussian.json`` (a few minutes).
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import platform
import time
import warnings
from pathlib import Path

import numpy as np
import prv_accountant
from dp_accounting.pld import privacy_loss_distribution as pld
from prv_accountant.privacy_random_variables import PrivacyRandomVariable
from scipy.special import ndtr

warnings.filterwarnings("ignore")
OUTPUT = Path(__file__).with_name("peer_cp_gaussian.json")
GENERATED = "2026-11-24"

#: (name, p, [(mu, count)...], gdp mu or 0, delta): Table 4's NoisySGD column (Thm 4.8), a
#: Thm 4.10 bound (C_p(G(a))^k (x) G(b)), a Thm 4.9 bound (two subsampled factors and G(b)),
#: and p = 1 (then the composition is Gaussian: an exact check of the pipeline).
SETTINGS = [
    ("table4,E=50", 1 / 40, [(2 / 3, 2000)], 0.0, 1e-5),
    ("table4,E=100", 1 / 40, [(2 / 3, 4000)], 0.0, 1e-5),
    ("table4,E=200", 1 / 40, [(2 / 3, 8000)], 0.0, 1e-5),
    ("thm4.10,b/n=0.01,L/b=0.5,eta=0.1,k=800", 0.01,
     [(2 * math.sqrt(10) / 3 * 0.5 / 3, 800)], math.sqrt(10) / (0.1 * 3 * math.sqrt(800)), 1e-5),
    ("thm4.9,p=0.05,mu=0.5,c=0.9,k=30", 0.05, [(2 * math.sqrt(2) * 0.5, 1), (1.0, 30)],
     2 * math.sqrt(2) * 0.5 * 0.9 ** 31 / 0.1, 1e-5),
    ("p=1,mu=0.3,t=16", 1.0, [(0.3, 16)], 0.0, 1e-5),
]


class CpGaussianPRV(PrivacyRandomVariable):
    """Y of Bok et al. 2024, Prop. D.4 (right-continuous at 0), for prv-accountant."""

    def __init__(self, p: float, mu: float) -> None:
        self.p, self.mu = float(p), float(mu)

    def cdf(self, t):
        t = np.asarray(t, dtype=float)
        p, mu = self.p, self.mu
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            ep = np.log(np.maximum((p - 1 + np.exp(np.abs(t))) / p, 1.0))
            pos = p * ndtr(ep / mu - mu / 2) + (1 - p) * ndtr(ep / mu + mu / 2)
            neg = ndtr(-ep / mu - mu / 2)
        return np.where(t >= 0, pos, neg)


def _rounded_pmf(p: float, mu: float, vdi: float, pessimistic: bool, tail: float = 1e-18):
    """The pmf of Y on multiples of vdi: mass of ((k-1) vdi, k vdi] at k (pessimistic) or of
    [k vdi, (k+1) vdi) at k (optimistic); mass beyond the range to +inf / the top point."""
    prv = CpGaussianPRV(p, mu)
    lo, hi = -1.0, 1.0
    while prv.cdf(lo) > tail:
        lo *= 2
    while 1 - prv.cdf(hi) > tail:
        hi *= 2
    k = np.arange(math.floor(lo / vdi), math.ceil(hi / vdi) + 1)
    F = prv.cdf(k * vdi)
    if pessimistic:
        # ((k-1) h, k h] -> k; the mass below the range goes to the lowest point (up)
        mass = np.diff(np.concatenate([[0.0], F]))
        keys, inf_mass = k, 1 - F[-1]
    else:
        # (k h, (k+1) h] -> k (down); below the range: dropped; above: to the top point
        mass = np.concatenate([np.diff(F), [1 - F[-1]]])
        keys, inf_mass = k, 0.0
    pmf = {int(a): float(b) for a, b in zip(keys, mass, strict=True) if b > 0}
    return pmf, float(inf_mass)


def dp_accounting_eps(p, factors, gdp, delta, vdi, pessimistic):
    result = None
    for mu, count in factors:
        pmf, inf_mass = _rounded_pmf(p, mu, vdi, pessimistic)
        one = pld.PrivacyLossDistribution.create_from_rounded_probability(
            pmf, inf_mass, vdi, pessimistic_estimate=pessimistic, symmetric=True)
        block = one.self_compose(count)
        result = block if result is None else result.compose(block)
    if gdp > 0:
        g = pld.from_gaussian_mechanism(1 / gdp, value_discretization_interval=vdi,
                                        pessimistic_estimate=pessimistic)
        result = result.compose(g)
    return float(result.get_epsilon_for_delta(delta))


def prv_eps(p, factors, gdp, delta, eps_error):
    prvs = [CpGaussianPRV(p, mu) for mu, _ in factors]
    counts = [c for _, c in factors]
    if gdp > 0:
        prvs.append(prv_accountant.GaussianMechanism(noise_multiplier=1 / gdp))
        counts.append(1)
    acc = prv_accountant.PRVAccountant(prvs=prvs, max_self_compositions=counts,
                                       eps_error=eps_error, delta_error=1e-10, eps_max=40.0)
    return [float(x) for x in acc.compute_epsilon(delta=delta, num_self_compositions=counts)]


def main() -> None:
    records = []
    for name, p, factors, gdp, delta in SETTINGS:
        for eps_error in (1e-1, 1e-2, 1e-3):
            t0 = time.process_time()
            lo, est, hi = prv_eps(p, factors, gdp, delta, eps_error)
            records.append({"setting": name, "library": "prv-accountant",
                            "call": f"PRVAccountant(..., eps_error={eps_error}, "
                                    "delta_error=1e-10, eps_max=40.0).compute_epsilon",
                            "eps_error": eps_error, "lower": lo, "estimate": est, "upper": hi,
                            "cpu_seconds": round(time.process_time() - t0, 3)})
            print(records[-1], flush=True)
        for vdi in (1e-2, 1e-3, 1e-4):
            if vdi == 1e-4 and sum(c for _, c in factors) > 4000:
                continue   # minutes per call
            out = {}
            t0 = time.process_time()
            for pess in (True, False):
                out[pess] = dp_accounting_eps(p, factors, gdp, delta, vdi, pess)
            records.append({"setting": name, "library": "dp-accounting",
                            "call": f"create_from_rounded_probability(vdi={vdi}) "
                                    ".self_compose/.compose.get_epsilon_for_delta",
                            "vdi": vdi, "pessimistic": out[True], "optimistic": out[False],
                            "cpu_seconds": round(time.process_time() - t0, 3)})
            print(records[-1], flush=True)
    doc = {
        "description": __doc__.split("\n\n")[0],
        "generated": GENERATED,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "libraries": {lib: importlib.metadata.version(lib)
                      for lib in ("dp-accounting", "prv-accountant", "numpy", "scipy")},
        "settings": [{"name": n, "p": p, "factors": f, "gdp": g, "delta": d}
                     for n, p, f, g, d in SETTINGS],
        "records": records,
    }
    OUTPUT.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
