"""Fuzz the public API and every paper statement with hostile inputs; count the outcomes.

Usage::

    .venv/bin/python scripts/fuzz_api.py [--calls 7000] [--timeout 10] [--seed 0] [--show 40]

Targets: the top-level functions of :mod:`dpsym` and every function of a paper package whose
name is a statement (``thm_``, ``lem_``, ``cor_``, ``prop_``, ``eq_``, ``rem_``, ``def_``,
``app_``).  A *baseline* call of each target is taken from its own doctest (a call with literal
arguments), so the fuzz starts from a valid input; one argument at a time is then replaced by a
value from the hostile classes below (NaN, inf, None, strings, complex, bytes, lists, numpy
scalars and arrays, bool, extremes, negatives, generators), and ``dps`` by hostile precisions.

Outcomes: ``ok`` (a finite value), ``value-error`` (a ValueError naming a parameter of the
function), ``value-error-unnamed`` (a ValueError that names none), ``other-exception`` (any other
exception type), ``bad-value`` (a NaN, an infinity, or a negative privacy value where the baseline
was non-negative), ``timeout``.  Exit status 1 when an outcome other than ``ok``/``value-error``
occurs.
"""

from __future__ import annotations

import argparse
import ast
import collections
import dataclasses
import importlib
import inspect
import math
import random
import re
import signal
import sys
import time
from fractions import Fraction

import mpmath
import numpy as np

import dpsym
from dpsym.papers.registry import PAPERS

STATEMENT = re.compile(r"^(thm|lem|cor|prop|eq|rem|def|app)_")
PUBLIC = [n for n in dpsym.__all__ if n not in ("__version__", "HypothesisError", "nstr")]


class Timeout(Exception):  # noqa: N818 - the outcome's name in the report
    pass


def _alarm(signum, frame):
    raise Timeout


def targets() -> list[tuple[str, object]]:
    out = [(f"dpsym.{n}", getattr(dpsym, n)) for n in PUBLIC]
    for paper in PAPERS:
        mod = importlib.import_module(f"dpsym.papers.{paper.id}")
        for name in sorted(getattr(mod, "__all__", None) or dir(mod)):
            f = getattr(mod, name, None)
            if STATEMENT.match(name) and inspect.isfunction(f):
                out.append((f"{paper.id}.{name}", f))
    return out


def _test_calls() -> dict[str, list[tuple[list, dict]]]:
    """Calls with literal arguments in tests/*.py, by function name (more baselines)."""
    from pathlib import Path

    out: dict[str, list] = collections.defaultdict(list)
    for path in sorted((Path(__file__).resolve().parents[1] / "tests").glob("test_*.py")):
        try:
            tree = ast.parse(path.read_text())
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fname = getattr(node.func, "id", getattr(node.func, "attr", None))
            if not fname or (not STATEMENT.match(fname) and fname not in PUBLIC):
                continue
            try:
                args = [ast.literal_eval(a) for a in node.args]
                kw = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
            except Exception:
                continue
            if args or kw:
                paper = next((p.id for p in PAPERS if p.id in path.name), "")
                out[f"{paper}.{fname}"].append((args, kw))
    return out


TEST_CALLS: dict[str, list] = {}


def baselines(name: str, f) -> list[tuple[list, dict]]:
    """Calls of ``f`` with literal arguments found in its docstring examples and the tests."""
    short = name.rsplit(".", 1)[-1]
    doc = inspect.getdoc(f) or ""
    key = name if not name.startswith("dpsym.") else f".{short}"
    found = list(TEST_CALLS.get(key, []))[:6]
    for line in doc.splitlines():
        line = line.strip()
        if not (line.startswith(">>>") or line.startswith("...")):
            continue
        src = line[3:].strip()
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fname = getattr(node.func, "id", getattr(node.func, "attr", None))
            if fname == short:
                try:
                    args = [ast.literal_eval(a) for a in node.args]
                    kw = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
                except Exception:
                    continue
                found.append((args, kw))
    return found


def _gen():
    yield 1


def hostile(rng: random.Random, base: object) -> object:
    """One value of a hostile class, sometimes derived from the valid ``base``."""
    b = base if isinstance(base, int | float) and not isinstance(base, bool) else 1
    choices = [
        float("nan"), float("inf"), float("-inf"), None, "abc", "", "nan", "inf", 2 + 0j, 1j,
        b"1", [b, b], (), True, False, 0, -1, -b, 1e308, -1e308, 1e-320, 10**18, 10**400,
        np.float64(b), np.int64(int(b)) if float(b).is_integer() else np.float32(b),
        np.array([b]), np.array(b), np.nan, _gen(), "1e-5", Fraction(1, 3), mpmath.mpf(b),
        mpmath.mpf("nan"), b * 1e6, b * 1e-6, -1e-5, str(b), object(), {"a": 1}, 1e160, 1e-160,
    ]
    return rng.choice(choices)


def hostile_values() -> list[object]:
    """The fixed list of the systematic mode: non-numbers, non-finite values and extremes."""
    return [float("nan"), float("inf"), float("-inf"), None, "abc", "", 2 + 0j, b"1",
            [2.0, 3.0], True, 0, -1, -1e-5, 1e308, 1e-320, 10**18, np.float64(2.0),
            np.int64(3), np.array([1.0]), "1e-300", mpmath.mpf("nan")]


def _systematic(todo, a) -> int:
    counts: collections.Counter = collections.Counter()
    bad = []
    t0 = time.time()
    for name, f, bs in todo:
        args, kw = bs[0]
        exc, val = call(f, list(args), dict(kw), a.timeout * 3)
        if exc is not None:
            counts["baseline-invalid"] += 1
            continue
        nums = list(_numbers(val))
        nonneg = bool(nums) and all(v >= 0 for v in nums)
        params = list(inspect.signature(f).parameters)
        slots = [("pos", j) for j in range(len(args))] + [("kw", k) for k in kw]
        if "dps" in params and "dps" not in kw:
            slots.append(("kw", "dps"))
        for kind, where in slots:
            for value in hostile_values() + ([0, 4, 1001, 100000, "30"] if where == "dps"
                                             else []):
                aa, kk = list(args), dict(kw)
                if kind == "pos":
                    aa[where] = value
                    changed = params[where] if where < len(params) else f"arg{where}"
                else:
                    kk[where] = value
                    changed = where
                exc, val = call(f, aa, kk, a.timeout)
                names = params + [changed] + [p.rstrip("s") for p in params]
                outcome = classify(exc, val, names, nonneg)
                counts[outcome] += 1
                if outcome not in ("ok", "value-error"):
                    detail = (f"{type(exc).__name__}: {str(exc)[:120]}" if exc is not None
                              else repr(val)[:80])
                    bad.append(f"{outcome:20s} {name} {changed}={value!r:.30} -> {detail}")
                    if a.verbose:
                        print(bad[-1], flush=True)
    total = sum(v for k, v in counts.items() if k != "baseline-invalid")
    print(f"{total} calls over {len(todo)} targets in {time.time() - t0:.0f} s")
    for k, v in sorted(counts.items()):
        print(f"  {k:22s} {v}")
    for line in bad[: a.show]:
        print(line)
    return 0 if set(counts) <= {"ok", "value-error", "baseline-invalid"} else 1


def hostile_dps(rng: random.Random) -> object:
    return rng.choice([0, -1, 4, True, 100000, 2000, 1001, 5.5, "30", None, np.int64(30), 5, 1000])


def classify(exc: BaseException | None, value: object, names: list[str], base_nonneg: bool) -> str:
    if exc is not None:
        if isinstance(exc, Timeout):
            return "timeout"
        if isinstance(exc, ValueError):
            msg = str(exc)
            return "value-error" if any(re.search(rf"\b{re.escape(n)}\b", msg) for n in names) \
                else "value-error-unnamed"
        return "other-exception"
    for v in _numbers(value):
        if math.isnan(v) or (math.isinf(v) and v > 0 and base_nonneg):
            return "bad-value"
        if base_nonneg and v < 0:
            return "bad-value"
    return "ok"


def _numbers(value: object, depth: int = 0):
    if depth > 3:
        return
    if isinstance(value, mpmath.mpf | float):
        yield float(value) if abs(value) < mpmath.mpf(10) ** 300 or mpmath.isinf(value) \
            else float(mpmath.sign(value))
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for fld in dataclasses.fields(value)[:20]:
            yield from _numbers(getattr(value, fld.name), depth + 1)
    elif isinstance(value, tuple | list):
        for v in value[:20]:
            yield from _numbers(v, depth + 1)


def call(f, args, kw, timeout):
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return None, f(*args, **kw)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        return exc, None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=7000)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=40)
    ap.add_argument("--verbose", action="store_true", help="print problems as they occur")
    ap.add_argument("--systematic", action="store_true",
                    help="every target x argument x value of HOSTILE_VALUES (first baseline)")
    ap.add_argument("--only", default=None, help="regex on target names")
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    TEST_CALLS.update(_test_calls())
    todo = []
    no_base = []
    for name, f in targets():
        if a.only and not re.search(a.only, name):
            continue
        sig = inspect.signature(f)
        bs = []
        for args, kw in baselines(name, f):
            try:
                sig.bind(*args, **kw)
            except TypeError:
                continue
            bs.append((args, kw))
        if bs:
            todo.append((name, f, bs))
        else:
            no_base.append(name)
    print(f"{len(todo)} targets with a doctest baseline; {len(no_base)} without", flush=True)
    counts: collections.Counter = collections.Counter()
    per_target: collections.Counter = collections.Counter()
    bad: list[str] = []
    base_sign = {}
    t0 = time.time()
    if a.systematic:
        return _systematic(todo, a)
    i = j = 0
    while i < a.calls and j < 20 * a.calls:
        name, f, bs = todo[j % len(todo)]
        j += 1
        args, kw = rng.choice(bs)
        key = (name, repr(args), repr(sorted(kw.items())))
        if key not in base_sign:
            exc, val = call(f, list(args), dict(kw), a.timeout * 3)
            nums = list(_numbers(val)) if exc is None else []
            base_sign[key] = None if exc is not None else bool(nums) and all(v >= 0 for v in nums)
        if base_sign[key] is None:
            continue  # the baseline itself is not a valid call
        i += 1
        params = list(inspect.signature(f).parameters)
        args, kw = list(args), dict(kw)
        slots = [("pos", j) for j in range(len(args))] + [("kw", k) for k in kw]
        if "dps" in params and rng.random() < 0.15:
            kw["dps"] = hostile_dps(rng)
            changed = "dps"
        elif slots:
            kind, where = rng.choice(slots)
            if kind == "pos":
                args[where] = hostile(rng, args[where])
                changed = params[where] if where < len(params) else f"arg{where}"
            else:
                kw[where] = hostile(rng, kw[where])
                changed = where
        else:
            changed = "-"
        exc, val = call(f, args, kw, a.timeout)
        names = params + [changed] + [p.rstrip("s") for p in params]
        outcome = classify(exc, val, names, base_sign[key])
        counts[outcome] += 1
        if outcome not in ("ok", "value-error"):
            per_target[name] += 1
            detail = (f"{type(exc).__name__}: {str(exc)[:120]}" if exc is not None
                      else repr(val)[:80])
            bad.append(f"{outcome:22s} {name}(*{args!r:.100}, **{kw!r:.100}) [{changed}] "
                       f"-> {detail}")
            if a.verbose:
                print(bad[-1], flush=True)
        if a.verbose and i % 250 == 0:
            print(f"... {i} calls, {time.time() - t0:.0f} s: {dict(counts)}",
                  flush=True)
    dt = time.time() - t0
    live = len({k[0] for k, v in base_sign.items() if v is not None})
    print(f"{i} calls over {live} targets in {dt:.0f} s")
    for k, v in sorted(counts.items()):
        print(f"  {k:22s} {v}")
    if per_target:
        print("targets with problems:", dict(per_target.most_common()))
    for line in bad[: a.show]:
        print(line)
    if no_base:
        print("no doctest baseline:", " ".join(no_base))
    return 0 if set(counts) <= {"ok", "value-error"} else 1


if __name__ == "__main__":
    sys.exit(main())
