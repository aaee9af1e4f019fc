"""Mutation testing: apply small mutations to dpsym and report which the tests and the ledger catch.

Usage::

    .venv/bin/python scripts/mutate.py [--only REGEX] [--list] [--no-ledger] [--no-pytest]

Each mutation is one exact text replacement in one file (the list below is fixed, so runs
compare): the ten mutations of the hardening issue (bounds scaled a little in the unsafe
direction, rounding towards the wrong side) and at least one per concept module.  For each,
the repository is copied to a temporary directory, the mutation applied there (the checkout
is never touched), and

* the *ledger*: ``dpsym verify --json`` for the mutation's papers; caught when a claim's
  verdict differs from the unmutated run (or the run fails);
* *pytest*: the mutation's test files with ``-x``; caught when a test fails.

A mutation marked ``unsafe`` moves a privacy bound to the unsafe side: the ledger alone must
catch it.  It takes ~20-40 min on 2 cores; it is not run in CI.  Exit status 1 when an unsafe
mutation escapes the ledger or any mutation escapes both.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


@dataclass(frozen=True)
class Mutation:
    name: str
    path: str
    old: str
    new: str
    unsafe: bool
    papers: tuple[str, ...] = ("core",)
    tests: tuple[str, ...] = ()


MUTATIONS = [
    # --- the ten of the hardening issue -------------------------------------------------------
    Mutation("accountant lower bound x1.5", "dpsym/accounting/runs.py",
             "        return round_down(steps * v, dps)",
             "        return round_down(steps * v * 3 / 2, dps)", True, ("core",),
             ("tests/test_accounting.py",)),
    Mutation("optimal_delta x0.999", "dpsym/rdp/conversions.py",
             "    return _optimum(alpha, tau, eps)[0]",
             "    return _optimum(alpha, tau, eps)[0] * mpf('0.999')", True, ("core",),
             ("tests/test_conversions.py",)),
    Mutation("round_up -> round to nearest", "dpsym/numerics.py",
             '    return _round(x, dps, "c")', '    return _round(x, dps, "n")', True, ("core",),
             ("tests/test_numerics.py",)),
    Mutation("gdp_delta x1.0001", "dpsym/fdp/gdp.py",
             "    return round_up(min(d, mpf(1)), dps)",
             "    return round_up(min(d, mpf(1)) * mpf('1.0001'), dps)", False, ("core",),
             ("tests/test_gdp.py",)),
    Mutation("gdp_epsilon x0.999", "dpsym/fdp/gdp.py",
             "            e = round_up(e * (1 + mpf(10) ** (-dps)), dps)\n"
             "    return round_up(e, dps)",
             "            e = round_up(e * (1 + mpf(10) ** (-dps)), dps)\n"
             "    return round_up(e * mpf('0.999'), dps)", True, ("core",), ("tests/test_gdp.py",)),
    Mutation("Poisson RDP upper end x0.999", "dpsym/rdp/arb_series.py",
             "                    lo, hi = o.lower(ball), o.upper(ball)",
             "                    lo, hi = o.lower(ball), o.upper(ball) * mpf('0.999')", True,
             ("core",), ("tests/test_rdp_series.py",)),
    Mutation("balle2020 eps: tau x0.999", "dpsym/rdp/conversions.py",
             "    return tau + m.log1p(-1 / alpha) - (m.log(delta) + m.log(alpha)) / (alpha - 1)",
             "    return tau * 999 / 1000 + m.log1p(-1 / alpha) - (m.log(delta) + m.log(alpha)) "
             "/ (alpha - 1)", True, ("core",), ("tests/test_conversions.py",)),
    Mutation("round_down -> round up", "dpsym/numerics.py",
             '    return _round(x, dps, "f")', '    return _round(x, dps, "c")', True, ("core",),
             ("tests/test_numerics.py",)),
    Mutation("compose_gdp x0.99", "dpsym/fdp/gdp.py",
             "        out = mpmath.sqrt(mpmath.fsum(v * v for v in vals))",
             "        out = mpmath.sqrt(mpmath.fsum(v * v for v in vals)) * mpf('0.99')", True,
             ("core", "bok2024"), ("tests/test_gdp.py",)),
    Mutation("Phi_inv stops early", "dpsym/numerics.py",
             "    tol = mpf(2) ** (-mp.prec + 4)", "    tol = mpf(2) ** (-12)", False,
             ("core",), ("tests/test_numerics.py",)),
    # --- one per concept module ---------------------------------------------------------------
    Mutation("rdp.taylor: Thm 3.3/3.4 bounds x0.99", "dpsym/rdp/taylor.py",
             "    return round_up(t * mpmath.log1p(log_arg_minus_1) / (a - 1), dps)",
             "    return round_up(t * mpmath.log1p(log_arg_minus_1) / (a - 1) * mpf('0.99'), "
             "dps)",
             True, ("birrell2024",), ("tests/test_rdp.py",)),
    Mutation("rdp.wang2019: lower bound x1.01", "dpsym/rdp/wang2019.py",
             "        out = t * (a * mpmath.log1p(-qv) + logsumexp(terms)) / (a - 1)\n"
             "    return round_down(out, dps)",
             "        out = t * (a * mpmath.log1p(-qv) + logsumexp(terms)) / (a - 1)\n"
             "    return round_down(out * mpf('1.01'), dps)", True, ("birrell2024",),
             ("tests/test_birrell2024_core.py",)),
    Mutation("rdp.fixed_size_replacement: upper x0.99", "dpsym/rdp/fixed_size_replacement.py",
             "    return round_up(out, dps)", "    return round_up(out * mpf('0.99'), dps)", True,
             ("birrell2024",), ("tests/test_birrell2024_fswr.py",)),
    Mutation("pld: certified interval upper x0.99", "dpsym/pld/compose.py",
             "            return PLDInterval(target, mpf(given.numerator) / given.denominator, "
             "lo, hi,",
             "            return PLDInterval(target, mpf(given.numerator) / given.denominator, lo, "
             "hi * mpf('0.99'),", True, ("core",), ("tests/test_pld.py",)),
    Mutation("shifts.pabi: Thm 3.4 value x0.99", "dpsym/shifts/pabi.py",
             "        value = _theorem_3_4(pr.D, pr.h, P, _weights(P, pr.sigma2))\n"
             "    return round_up(value, dps)",
             "        value = _theorem_3_4(pr.D, pr.h, P, _weights(P, pr.sigma2))\n"
             "    return round_up(value * mpf('0.99'), dps)", True, ("bravo2025",),
             ("tests/test_bravo2025_shifts.py",)),
    Mutation("aggregation: calibrated sigma x0.99", "dpsym/aggregation/composition.py",
             "        s = find_root(gap, mpf(\"0.1\"), mpf(10), lower=0, side=\"upper\")\n"
             "    return round_up(s, dps)",
             "        s = find_root(gap, mpf(\"0.1\"), mpf(10), lower=0, side=\"upper\")\n"
             "    return round_up(s * mpf('0.99'), dps)", True, ("tran2022",),
             ("tests/test_aggregation.py",)),
    Mutation("accounting.calibrate: one step too small", "dpsym/accounting/calibrate.py",
             "    return Calibration(k_hi * step, eps, target, mpf(str(delta)), method, evals)",
             "    return Calibration((k_hi - 1) * step, eps, target, mpf(str(delta)), method, "
             "evals)",
             True, ("core",), ("tests/test_calibrate.py",)),
    Mutation("langevin: projected-Gaussian KL x0.99", "dpsym/langevin.py",
             "        return round_up(max(total, mpf(0)), dps)",
             "        return round_up(max(total, mpf(0)) * mpf('0.99'), dps)", True,
             ("bravo2025",), ("tests/test_bravo2025_bounds.py",)),
    Mutation("sampling: binomial pmf exponent off by one", "dpsym/sampling.py",
             "    return comb(n, k) * p**k * (1 - p) ** (n - k)",
             "    return comb(n, k) * p**k * (1 - p) ** (n - k + 1)", False, ("birrell2024",),
             ("tests/test_birrell2024_sampling.py",)),
    Mutation("gaussian_mixture: log H x0.99", "dpsym/rdp/gaussian_mixture.py",
             "    return round_down(out, dps)", "    return round_down(out * mpf('0.99'), dps)",
             False, ("birrell2024",), ("tests/test_rdp.py",)),
    Mutation("numerics.find_root: 'upper' side returns the lower end", "dpsym/numerics.py",
             '    if side == "upper":\n        return b',
             '    if side == "upper":\n        return a', True, ("core",),
             ("tests/test_numerics.py", "tests/test_gdp.py")),
    Mutation("balls.upper_mpf: lower end", "dpsym/balls.py",
             '    return mp.make_mpf(libmp.mpf_add(m, r, _exact_or(m, r), "c"))',
             '    return mp.make_mpf(libmp.mpf_sub(m, r, _exact_or(m, r), "f"))', True,
             ("core",), ("tests/test_rdp_series.py",)),
]


def _copy(tmp: Path) -> Path:
    dst = tmp / "repo"
    shutil.copytree(ROOT, dst, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "__pycache__", "*.pyc", ".hypothesis", ".pytest_cache",
        "figures", "notebooks"))
    return dst


def _env(repo: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(repo)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _ledger(repo: Path, papers: tuple[str, ...], timeout: float) -> dict[str, str] | str:
    out: dict[str, str] = {}
    for p in papers:
        try:
            r = subprocess.run([PY, "-m", "dpsym.cli", "verify", "--paper", p, "--json",
                                "--no-progress"], capture_output=True, text=True,
                               timeout=timeout, cwd=repo, env=_env(repo))
        except subprocess.TimeoutExpired:
            return "timeout"
        try:
            rows = json.loads(r.stdout)
        except json.JSONDecodeError:
            return f"crash: {r.stderr.strip().splitlines()[-1:] }"
        out.update({row["id"]: row["verdict"] for row in rows})
    return out


def _pytest(repo: Path, tests: tuple[str, ...], timeout: float) -> tuple[bool, str]:
    if not tests:
        return False, "no tests"
    try:
        r = subprocess.run([PY, "-m", "pytest", "-p", "no:xdist", "-x", "-q", "-p",
                            "no:cacheprovider", *tests], capture_output=True, text=True,
                           timeout=timeout, cwd=repo, env=_env(repo))
    except subprocess.TimeoutExpired:
        return True, "timeout"
    tail = (r.stdout.strip().splitlines() or [""])[-1]
    return r.returncode != 0, tail


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=None, help="regex on mutation names")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--no-ledger", action="store_true")
    ap.add_argument("--no-pytest", action="store_true")
    ap.add_argument("--timeout", type=float, default=900)
    a = ap.parse_args(argv)
    todo = [m for m in MUTATIONS if not a.only or re.search(a.only, m.name)]
    for m in todo:  # every mutation must apply to exactly one place
        text = (ROOT / m.path).read_text()
        if text.count(m.old) != 1:
            print(f"mutation {m.name!r} matches {text.count(m.old)} places in {m.path}")
            return 2
    if a.list:
        for m in todo:
            print(f"{'unsafe' if m.unsafe else 'other ':6s} {m.name}  ({m.path})")
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as tmpdir:
        repo = _copy(Path(tmpdir))
        base: dict[str, dict[str, str]] = {}
        if not a.no_ledger:
            for p in sorted({p for m in todo for p in m.papers}):
                got = _ledger(repo, (p,), a.timeout)
                if isinstance(got, str):
                    print(f"baseline ledger of {p}: {got}")
                    return 2
                base[p] = got
        for m in todo:
            t0 = time.time()
            target = repo / m.path
            original = target.read_text()
            target.write_text(original.replace(m.old, m.new))
            try:
                ledger_caught, ledger_note = False, "-"
                if not a.no_ledger:
                    got = _ledger(repo, m.papers, a.timeout)
                    if isinstance(got, str):
                        ledger_caught, ledger_note = True, got
                    else:
                        ref = {k: v for p in m.papers for k, v in base[p].items()}
                        moved = sorted(k for k in ref if got.get(k) != ref[k])
                        ledger_caught = bool(moved)
                        ledger_note = ", ".join(moved[:3]) + (" ..." if len(moved) > 3 else "")
                test_caught, test_note = (False, "-") if a.no_pytest else _pytest(
                    repo, m.tests, a.timeout)
            finally:
                target.write_text(original)
            rows.append((m, ledger_caught, test_caught, ledger_note, test_note))
            print(f"{m.name:48s} unsafe={m.unsafe!s:5s} ledger={ledger_caught!s:5s} "
                  f"pytest={test_caught!s:5s} ({time.time() - t0:.0f} s)\n    ledger: "
                  f"{ledger_note}\n    pytest: {test_note}", flush=True)
    n = len(rows)
    led = sum(r[1] for r in rows)
    tst = sum(r[2] for r in rows)
    both = sum(r[1] or r[2] for r in rows)
    unsafe = [r for r in rows if r[0].unsafe]
    unsafe_led = sum(r[1] for r in unsafe)
    print(f"\n{n} mutations: ledger caught {led}, pytest {tst}, together {both}; "
          f"unsafe ones caught by the ledger: {unsafe_led}/{len(unsafe)}")
    bad = [r[0].name for r in rows if (r[0].unsafe and not r[1]) or not (r[1] or r[2])]
    if bad:
        print("escaped:", "; ".join(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
