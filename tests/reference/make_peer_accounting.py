"""Record peer-library privacy accounting of DP-SGD runs (estimates to compare, not truth).

For the three runs of issue 10 (Poisson sampling, add/remove, delta = 1e-5) this records
eps as computed by dp-accounting (PLD and RDP accountants), prv-accountant (PRV accountant,
its lower/estimate/upper), Opacus (RDP accountant) and Opacus's noise calibration, each
with the library, its version, the exact call (``eval``-able, see ``call``) and the CPU
seconds it took.  dpsym's tests check that its certified PLD interval *contains* every
peer estimate and that its RDP eps is not above the peers' RDP eps; the peers are never
used as the truth.

This script is NOT part of the dpsym test run.  Run it in a separate virtualenv, from the
repository root::

    python3 -m venv /work/wt/peers-venv
    /work/wt/peers-venv/bin/pip install torch==2.13.0        # CPU wheel (Opacus needs it)
    /work/wt/peers-venv/bin/pip install opacus dp-accounting prv-accountant autodp
    /work/wt/peers-venv/bin/python tests/reference/make_peer_accounting.py

It (re)writes ``tests/reference/peer_accounting.json`` beside this file (a few minutes).
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
import time
import warnings
from pathlib import Path

import dp_accounting
import dp_accounting.pld.pld_privacy_accountant
import dp_accounting.rdp.rdp_privacy_accountant  # noqa: F401
import opacus.accountants
import opacus.accountants.utils  # noqa: F401
import prv_accountant  # noqa: F401

warnings.filterwarnings("ignore")
OUTPUT = Path(__file__).with_name("peer_accounting.json")
GENERATED = "2026-11-24"
DELTA = 1e-5
SETTINGS = [  # (name, q, sigma, steps)
    ("q=0.01,sigma=1,T=1000", 0.01, 1.0, 1000),
    ("q=0.04,sigma=1.5,T=2250", 0.04, 1.5, 2250),
    ("q=256/60000,sigma=1.1,T=14063", 256 / 60000, 1.1, 14063),
]

EVENT = ("dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent({q!r}, "
         "dp_accounting.GaussianDpEvent({sigma!r})), {steps})")
CALLS = [
    ("dp-accounting", "pld", "dp_accounting.pld.pld_privacy_accountant.PLDAccountant()"
     ".compose(" + EVENT + ").get_epsilon({delta!r})"),
    ("dp-accounting", "pld vdi=1e-5", "dp_accounting.pld.pld_privacy_accountant.PLDAccountant("
     "value_discretization_interval=1e-5).compose(" + EVENT + ").get_epsilon({delta!r})"),
    ("dp-accounting", "rdp", "dp_accounting.rdp.rdp_privacy_accountant.RdpAccountant()"
     ".compose(" + EVENT + ").get_epsilon({delta!r})"),
    ("prv-accountant", "prv eps_error=1e-3",
     "prv_accountant.PRVAccountant(prvs=[prv_accountant.PoissonSubsampledGaussianMechanism("
     "noise_multiplier={sigma!r}, sampling_probability={q!r})], max_self_compositions=[{steps}],"
     " eps_error=1e-3, delta_error=1e-10).compute_epsilon(delta={delta!r}, "
     "num_self_compositions=[{steps}])"),
    ("opacus", "rdp", "(lambda a: (setattr(a, 'history', [({sigma!r}, {q!r}, {steps})]), "
     "a.get_epsilon({delta!r}))[1])(opacus.accountants.RDPAccountant())"),
]
CALIBRATION = ("opacus", "get_noise_multiplier rdp",
               "opacus.accountants.utils.get_noise_multiplier(target_epsilon=2.0, "
               "target_delta=1e-05, sample_rate=0.01, steps=1000, accountant='rdp', "
               "epsilon_tolerance=0.001)")
# prv-accountant's time against its eps_error on the first setting (for the PLD timing table)
PRV_TIMING = [1e-2, 3e-3, 1e-3, 5e-4]


def version(dist: str) -> str:
    return importlib.metadata.version(dist)


def run(call: str) -> tuple[object, float]:
    t0 = time.process_time()
    value = eval(call)  # the recorded call itself
    return value, time.process_time() - t0


def main() -> None:
    records = []
    for name, q, sigma, steps in SETTINGS:
        for lib, what, template in CALLS:
            call = template.format(q=q, sigma=sigma, steps=steps, delta=DELTA)
            value, secs = run(call)
            if isinstance(value, tuple):  # prv-accountant: (lower, estimate, upper)
                value = {"lower": repr(value[0]), "estimate": repr(value[1]),
                         "upper": repr(value[2])}
            else:
                value = repr(float(value))
            records.append({"setting": name, "q": q, "sigma": sigma, "steps": steps,
                            "delta": DELTA, "library": lib, "version": version(lib),
                            "what": what, "call": call, "epsilon": value,
                            "cpu_seconds": round(secs, 3)})
            print(name, lib, what, value, f"{secs:.2f}s", flush=True)
    lib, what, call = CALIBRATION
    value, secs = run(call)
    calibration = {"library": lib, "version": version(lib), "what": what, "call": call,
                   "sigma": repr(float(value)), "cpu_seconds": round(secs, 3)}
    timings = []
    _, q, sigma, steps = SETTINGS[0]
    for err in PRV_TIMING:
        call = CALLS[3][2].format(q=q, sigma=sigma, steps=steps, delta=DELTA).replace(
            "eps_error=1e-3", f"eps_error={err!r}")
        value, secs = run(call)
        timings.append({"library": "prv-accountant", "version": version("prv-accountant"),
                        "call": call, "eps_error": err, "width": 2 * err,
                        "epsilon": [repr(v) for v in value], "cpu_seconds": round(secs, 3)})
        print("prv timing", err, f"{secs:.2f}s", flush=True)
    out = {
        "description": "eps at delta = 1e-5 of DP-SGD runs (Poisson sampling, add/remove, "
                       "noise multiplier sigma on a sensitivity-1 sum) by peer libraries, "
                       "float64 estimates; 'call' is the exact expression evaluated. "
                       "Generated by make_peer_accounting.py.",
        "generated": GENERATED,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "libraries": {d: version(d) for d in ("dp-accounting", "prv-accountant", "opacus",
                                              "torch", "numpy", "scipy")},
        "records": records,
        "calibration": calibration,
        "prv_timing": timings,
    }
    OUTPUT.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
