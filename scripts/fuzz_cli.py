"""Fuzz the ``dpsym`` command line: hostile invocations, each in a subprocess with a time limit.

Usage::

    .venv/bin/python scripts/fuzz_cli.py [--timeout 120] [--only REGEX] [--jobs 1]

Every invocation must end with exit status 0, 1 or 2, print no traceback, keep any error to
one line on stderr (progress bars aside), and finish within the time limit (or print a cap
message).  The list is fixed (the classes of the hardening issue: negative, huge, tiny,
non-finite and malformed values, flag combinations, caps, files) so runs compare.
Exit status 1 when an invocation breaks a rule.
"""

from __future__ import annotations

import argparse
import os
import re
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUN = ["--sigma", "1", "--q", "0.01", "--steps", "100"]


def invocations(tmp: Path) -> list[list[str]]:
    ro = tmp / "readonly"
    ro.mkdir(exist_ok=True)
    (ro / "core_conversions.png").write_bytes(b"user data")
    os.chmod(ro / "core_conversions.png", stat.S_IRUSR)
    afile = tmp / "a_file"
    afile.write_text("x")
    acc = ["account"]
    out: list[list[str]] = []
    for d in ["1e-5", "-1e-5", "0", "1", "2", "nan", "inf", "-inf", "abc", "", "1e-300",
              "1e-400", "0x10", "1/3", "1e5000"]:
        out.append([*acc, *RUN, "--delta", d])
    for s in ["-1", "0", "1e-300", "1e300", "nan", "inf", "abc", "1e-5", "1000000"]:
        out.append([*acc, "--sigma", s, "--q", "0.01", "--steps", "100", "--delta", "1e-5"])
    for q in ["-0.1", "0", "1", "1.5", "nan", "1e-300", "0.999999"]:
        out.append([*acc, "--sigma", "1", "--q", q, "--steps", "100", "--delta", "1e-5"])
    for t in ["0", "-1", "1.5", "1e12", "1e30", "abc", "1e308", "9007199254740993"]:
        out.append([*acc, "--sigma", "1", "--q", "0.01", "--steps", t, "--delta", "1e-5"])
    for o in ["2:100000", "1e9", "1:2:3", "2,3,abc", "", "0.5", "2:1", "1.5", "2:64,1e6",
              "100000", "2:1001", ",", "a:b"]:
        out.append([*acc, *RUN, "--delta", "1e-5", "--orders", o])
    for dps in ["100000", "0", "-1", "4", "5", "1000", "1001", "abc", "3.5"]:
        out.append([*acc, *RUN, "--delta", "1e-5", "--dps", dps])
    for mu in ["1e308", "-1", "0", "1e-300", "nan", "50"]:
        out.append([*acc, "--mu", mu, "--delta", "1e-5"])
    for m in ["0", "2", "100", "1e18", "abc"]:
        out.append([*acc, "--sigma", "1", "--sampling", "fswor", "--batch-size", "10",
                    "--dataset-size", "1000", "--steps", "10", "--delta", "1e-5",
                    "--taylor-order", m])
    out += [
        [*acc, "--sigma", "1", "--sampling", "fswor", "--batch-size", "10", "--dataset-size",
         "1000", "--steps", "100", "--delta", "1e-5", "--continuous"],
        [*acc, "--sigma", "1", "--sampling", "fswr", "--batch-size", "10", "--dataset-size",
         "1000", "--steps", "10", "--delta", "1e-5"],
        [*acc, "--sigma", "1", "--sampling", "fswor", "--batch-size", "2000",
         "--dataset-size", "1000", "--steps", "10", "--delta", "1e-5"],
        [*acc, *RUN, "--eps", "-1"],
        [*acc, *RUN, "--eps", "1e308"],
        [*acc, *RUN, "--delta", "1e-5", "--eps", "1"],
        [*acc, *RUN],
        [*acc, *RUN, "--delta", "1e-5", "--method", "pld", "--width", "-1"],
        [*acc, *RUN, "--delta", "1e-5", "--method", "pld", "--width", "1e-300"],
        [*acc, *RUN, "--delta", "1e-5", "--method", "gdp"],
        [*acc, *RUN, "--delta", "1e-5", "--conversion", "bogus"],
        [*acc, *RUN, "--delta", "1e-5", "--phase", "0.01,1,10"],
        [*acc, "--phase", "0.01,1", "--delta", "1e-5"],
        [*acc, "--phase", "0.01,1,-5", "--delta", "1e-5"],
        [*acc, *RUN, "--delta", "1e-5", "--plot", str(afile / "x.png")],
        [*acc, *RUN, "--delta", "1e-5", "--plot", "/nonexistent/x.png"],
        [*acc, "--sigma", "1", "--epochs", "1e9", "--batch-size", "1", "--dataset-size",
         "1000000", "--delta", "1e-5"],
        ["calibrate", "--q", "0.01", "--steps", "100", "--target-eps", "-1", "--delta", "1e-5"],
        ["calibrate", "--q", "0.01", "--steps", "100", "--target-eps", "1e-300", "--delta",
         "1e-5"],
        ["calibrate", "--q", "0.01", "--steps", "100", "--target-eps", "2", "--delta", "1e-5",
         "--sigma-step", "0"],
        ["compare", *RUN, "--delta", "-1e-5"],
        ["verify", "--dps", "100000"],
        ["verify", "--dps", "4"],
        ["verify", "--paper", "nosuchpaper"],
        ["verify", "--verdict", "bogus"],
        ["figures", "--paper", "core", "--out", str(ro), "--no-progress"],
        ["figures", "--paper", "core", "--out", str(afile), "--no-progress"],
        ["figures", "--paper", "core", "--out", str(afile / "sub"), "--no-progress"],
        ["figures", "--paper", "core", "--out", "/proc", "--no-progress"],
        ["figures", "--paper", "core", "--out", "/nonexistent/dir", "--no-progress"],
        ["figures", "--paper", "core", "--no-progress"],  # run outside the checkout
        ["reproduce", "--paper", "core", "--out", "/nonexistent/dir"],
        ["bogus"],
        [],
        ["account", "--bogus-flag"],
        ["--version"],
    ]
    return out


def check(argv: list[str], timeout: float, cwd: Path) -> tuple[str, str]:
    exe = [sys.executable, "-m", "dpsym.cli"]
    t0 = time.monotonic()
    try:
        p = subprocess.run(exe + argv, capture_output=True, text=True, timeout=timeout,
                           cwd=cwd)
    except subprocess.TimeoutExpired as exc:
        err = (exc.stderr or b"").decode() if isinstance(exc.stderr, bytes) else exc.stderr or ""
        capped = re.search(r"\bcap\b", err)
        return ("ok" if capped else "timeout"), f"killed after {timeout:.0f} s"
    dt = time.monotonic() - t0
    err_lines = [ln for ln in p.stderr.splitlines()
                 if ln.strip() and not re.search(r"\d+%\||it/s|s/it|claim/s|fig/s", ln)
                 and not ln.startswith("dpsym: not written:")
                 and not (ln.startswith("dpsym: ") and "error" not in ln)]
    if "Traceback" in p.stderr:
        return "traceback", p.stderr.strip().splitlines()[-1]
    if p.returncode not in (0, 1, 2):
        return "bad-status", f"rc={p.returncode}: {p.stderr.strip()[-200:]}"
    if p.returncode == 2 and len(err_lines) != 1:
        return "multi-line-error", " | ".join(err_lines)[:300]
    what = err_lines[0] if err_lines else (p.stdout.strip().splitlines() or [""])[-1]
    return "ok", f"rc={p.returncode} {dt:.1f}s {what[:160]}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--only", default=None)
    a = ap.parse_args(argv)
    bad = 0
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        todo = invocations(tmp)
        for args in todo:
            if a.only and not re.search(a.only, " ".join(args)):
                continue
            outcome, detail = check(args, a.timeout, tmp)
            counts[outcome] = counts.get(outcome, 0) + 1
            bad += outcome != "ok"
            print(f"{outcome:16s} dpsym {' '.join(args)[:110]}\n{'':16s} -> {detail}",
                  flush=True)
        ro = tmp / "readonly" / "core_conversions.png"
        intact = ro.read_bytes() == b"user data"
        print(f"read-only user file intact: {intact}")
        bad += not intact
    print(f"{sum(counts.values())} invocations: {counts}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
