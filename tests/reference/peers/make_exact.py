"""Write exact.json: for every case the peers were recorded on, the exact value.

Run from the repository root in dpsym's environment (after record_peers.py and
record_tf_privacy.py)::

    .venv/bin/python tests/reference/peers/make_exact.py [--jobs 2]

For each distinct case (quantity + parameters) it stores the independent exact value
(``dpsym.peers.exact``'s oracles at 40 digits; for numerical accountants the bracket of
``dpsym.peers.pld``) and dpsym's own value at 40 digits where dpsym computes the quantity,
so the audit chapter can show them without recomputing.  The tests recompute a sample of
both and check them against each other; the full run takes several minutes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from mpmath import mpf

from dpsym import gdp_delta, gdp_epsilon, poisson_gaussian_rdp
from dpsym.numerics import agreeing_digits, nstr, precision
from dpsym.peers import exact as ex
from dpsym.peers.pld import pld_epsilon_bounds
from dpsym.peers.records import LIBRARIES, case_key, load, load_grids
from dpsym.rdp.conversions import rdp_to_epsilon

OUT = Path(__file__).resolve().parent / "exact.json"
DPS = 40


def s(x: mpf) -> str:
    return nstr(x, DPS, strip_zeros=False)


def rdp_case(p: dict) -> dict:
    q, sg, a, t = p["q"], p["sigma"], p["alpha"], p["steps"]
    if q == 1.0:
        with precision(DPS + 10):
            v = t * mpf(a) / (2 * mpf(sg) ** 2)
        return {"exact": s(v), "dpsym": s(poisson_gaussian_rdp(q, sg, a, t, dps=DPS))}
    o = ex.oracle_poisson_rdp(q, sg, a, t, dps=DPS)
    d = poisson_gaussian_rdp(q, sg, a, t, dps=DPS)
    return {"exact": s(o), "dpsym": s(d), "digits": agreeing_digits(o, d)}


def log_a_case(p: dict) -> dict:
    q, sg, a = p["q"], p["sigma"], p["alpha"]
    o = ex.oracle_log_a(q, sg, a, dps=DPS)
    r = poisson_gaussian_rdp(q, sg, a, dps=DPS + 5)
    with precision(DPS + 5):
        d = r * (mpf(a) - 1)
    return {"exact": s(o), "dpsym": s(d), "digits": agreeing_digits(o, d)}


def epsilon_rdp_case(p: dict) -> dict:
    q, sg, t, d = p["q"], p["sigma"], p["steps"], p["delta"]
    orders = load_grids()[p["orders"]]
    if q == 1.0:
        rdps = []
        for a in orders:
            with precision(DPS + 10):
                rdps.append(t * mpf(a) / (2 * mpf(sg) ** 2))
    else:
        rdps = [poisson_gaussian_rdp(q, sg, a, t, dps=30) for a in orders]
    eps, order = rdp_to_epsilon(orders, rdps, d, conversion="balle2020", dps=30)
    # the oracle, at the optimal order and its neighbours
    i = orders.index(float(order))
    near = orders[max(0, i - 1):i + 2]
    o_rdp = [(ex.oracle_poisson_rdp(q, sg, a, t, dps=30) if q != 1.0 else
              rdps[orders.index(a)]) for a in near]
    o_eps, o_order = ex.oracle_balle_epsilon(near, o_rdp, d, dps=30)
    return {"exact": nstr(o_eps, 30, strip_zeros=False), "order": float(o_order),
            "dpsym": nstr(eps, 30, strip_zeros=False), "dpsym_order": float(order),
            "digits": agreeing_digits(o_eps, eps),
            "rdp_at_order": nstr(o_rdp[near.index(float(o_order))], 30)}


def epsilon_clt_case(p: dict) -> dict:
    mu = ex.poisson_clt_mu(p["q"], p["sigma"], p["steps"], dps=DPS + 5)
    o = ex.oracle_gdp_epsilon(mu, p["delta"], dps=DPS)
    d = gdp_epsilon(mu, p["delta"], dps=DPS)
    return {"exact": s(o), "dpsym": s(d), "mu": s(mu), "digits": agreeing_digits(o, d)}


def epsilon_gdp_case(p: dict) -> dict:
    o = ex.oracle_gdp_epsilon(p["mu"], p["delta"], dps=DPS)
    d = gdp_epsilon(p["mu"], p["delta"], dps=DPS)
    return {"exact": s(o), "dpsym": s(d), "digits": agreeing_digits(o, d)}


def delta_gdp_case(p: dict) -> dict:
    o = ex.oracle_gdp_delta(p["mu"], p["eps"], dps=DPS)
    d = gdp_delta(p["mu"], p["eps"], dps=DPS)
    return {"exact": s(o), "dpsym": s(d), "digits": agreeing_digits(o, d)}


def epsilon_gaussian_case(p: dict) -> dict:
    with precision(DPS + 10):
        mu = mpf(p["steps"]).sqrt() / mpf(p["sigma"])
    return epsilon_gdp_case({"mu": mu, "delta": p["delta"]}) | {"mu": s(mu)}


def epsilon_pld_case(p: dict) -> dict:
    out: dict = {}
    for d in ("remove", "add"):
        b = pld_epsilon_bounds(p["q"], p["sigma"], p["steps"], p["delta"], d)
        out[d] = [repr(b.lower), repr(b.upper)]
        out["h"] = b.h
    out["both"] = [repr(max(float(out["remove"][0]), float(out["add"][0]))),
                   repr(max(float(out["remove"][1]), float(out["add"][1])))]
    return out


HANDLERS = {"rdp": rdp_case, "log_a": log_a_case, "epsilon_rdp": epsilon_rdp_case,
            "epsilon_clt": epsilon_clt_case, "epsilon_gdp": epsilon_gdp_case,
            "delta_gdp": delta_gdp_case, "epsilon_gaussian": epsilon_gaussian_case,
            "epsilon_pld": epsilon_pld_case}


def work(item: tuple[str, str, dict]) -> tuple[str, dict, float]:
    key, quantity, params = item
    t0 = time.perf_counter()
    try:
        out = HANDLERS[quantity](params)
    except Exception as exc:  # recorded, so a case that cannot be settled is visible
        out = {"error": f"{type(exc).__name__}: {exc}"}
    return key, {"quantity": quantity, "params": params, **out}, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    cases: dict[str, tuple[str, str, dict]] = {}
    for lib in LIBRARIES:
        for r in load(lib)["records"]:
            k = case_key(r["quantity"], r["params"])
            cases.setdefault(k, (k, r["quantity"], r["params"]))
    old = json.loads(OUT.read_text())["cases"] if OUT.exists() else {}
    todo = [c for k, c in cases.items() if k not in old or "error" in old[k]]
    print(f"{len(cases)} cases, {len(todo)} to compute", flush=True)
    done = {k: v for k, v in old.items() if k in cases}
    with ProcessPoolExecutor(args.jobs) as pool:
        for i, (k, v, dt) in enumerate(pool.map(work, sorted(todo, key=lambda c: c[0]))):
            done[k] = v
            if dt > 5 or "error" in v:
                print(f"[{i + 1}/{len(todo)}] {dt:6.1f} s {k} {v.get('error', '')}", flush=True)
            if (i + 1) % 25 == 0:
                _write(done)
    _write(done)
    print(f"{len(done)} cases -> {OUT}")


def _write(done: dict) -> None:
    OUT.write_text(json.dumps({
        "note": "Exact values of the recorded peer cases: 'exact' by the oracles of "
                "dpsym.peers.exact (40 digits unless stated), 'remove'/'add'/'both' "
                "[lower, upper] eps brackets by dpsym.peers.pld; 'dpsym' is dpsym's own "
                "value. Written by tests/reference/peers/make_exact.py.",
        "python": sys.version.split()[0], "dps": DPS,
        "cases": dict(sorted(done.items()))}, indent=1) + "\n")


if __name__ == "__main__":
    main()
