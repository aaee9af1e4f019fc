"""Fuzz every public function and paper statement with hostile inputs (hypothesis).

The targets and their valid baseline calls come from ``scripts/fuzz_api.py`` (the doctests
and the tests' own literal calls).  One argument at a time is replaced by a hostile value:

* the CI profile (seeded, ~30 s): values that are not numbers at all, or NaN/inf (None,
  bool, bytes, complex, strings, containers, generators, arrays, NaN, +-inf).  Each call must
  raise a ``ValueError`` naming a parameter of the function, within a few seconds;
* the long profile (``-m slow``): numeric extremes as well (0, negatives, 1e308, 1e-320,
  10^18, numpy scalars), where a call may also return a value, which must then be a finite,
  non-negative number wherever the baseline's is, within 60 s.

The CLI has its own fuzz (:func:`test_cli_fuzz_sample`; the full list is
``scripts/fuzz_cli.py``).
"""

from __future__ import annotations

import importlib.util
import inspect
import math
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]


def _load_harness():
    spec = importlib.util.spec_from_file_location("fuzz_api", ROOT / "scripts" / "fuzz_api.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


H = _load_harness()
H.TEST_CALLS.update(H._test_calls())
TARGETS = []
for _name, _f in H.targets():
    _sig = inspect.signature(_f)
    _bs = []
    for _args, _kw in H.baselines(_name, _f):
        try:
            _sig.bind(*_args, **_kw)
        except TypeError:
            continue
        _bs.append((_args, _kw))
    if _bs:
        TARGETS.append((_name, _f, _bs))


def _gen():
    yield 1


NOT_A_NUMBER = st.one_of(
    st.none(), st.booleans(), st.binary(min_size=1, max_size=3),
    st.complex_numbers(allow_nan=False, allow_infinity=False, max_magnitude=10).filter(
        lambda z: z.imag != 0 or True),
    st.sampled_from(["abc", "", "nan", "inf", "-inf", "1e", "0x1", "--1"]),
    st.lists(st.floats(0.1, 10), min_size=2, max_size=3),
    st.sampled_from([float("nan"), float("inf"), float("-inf"), np.nan, np.float64("inf"),
                     np.array([1.0, 2.0]), {"a": 1}, {1, 2}, object(), np.complex128(1 + 1j)]),
    st.builds(_gen),
)

EXTREME = st.sampled_from([0, -1, -1e-5, 1e308, -1e308, 1e-320, 10**18, 1e160, 1e-160,
                           np.float32(0.5), np.int64(3), np.float64(2.0), "1e-300", "-0"])


def _slots(f, args, kw):
    params = list(inspect.signature(f).parameters.values())
    out = []
    for j, v in enumerate(args):
        if j < len(params):
            out.append(("pos", j, params[j], v))
    for k, v in kw.items():
        p = inspect.signature(f).parameters.get(k)
        if p is not None:
            out.append(("kw", k, p, v))
    return out


def _allowed(value, param, base):
    """Skip hostile values that are legitimate for this parameter (its default's type)."""
    default = param.default
    if value is None and (default is None or base is None):
        return False
    if isinstance(value, bool) and isinstance(default, bool):
        return False
    if isinstance(value, str) and (isinstance(default, str) or (isinstance(base, str)
                                   and not _numeric(base))):
        return False
    if isinstance(value, list | tuple) and isinstance(default, list | tuple):
        return False
    if isinstance(value, list | tuple) and isinstance(base, list | tuple):
        return False
    return not (isinstance(value, np.ndarray) and isinstance(base, list | tuple))


def _numeric(text):
    try:
        float(text)
    except (TypeError, ValueError):
        return "/" in str(text)
    return True


class _TimeoutError(Exception):
    pass


def _call(f, args, kw, seconds):
    def alarm(signum, frame):
        raise _TimeoutError

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return None, f(*args, **kw)
    except _TimeoutError as exc:
        return exc, None
    except Exception as exc:
        return exc, None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


_FAST: dict[tuple, bool] = {}


def _fast(f, args, kw, limit):
    """Whether the valid baseline call runs within ``limit`` s (measured once): the CI
    profile fuzzes the cheap calls, the long profile every call."""
    key = (f.__module__, f.__name__, repr(args), repr(kw))
    if key not in _FAST:
        import time

        t0 = time.perf_counter()
        exc, _ = _call(f, list(args), dict(kw), limit)
        _FAST[key] = exc is None and time.perf_counter() - t0 < limit
    return _FAST[key]


def _check(data, values, seconds, allow_value, baseline_limit=None):
    name, f, bs = data.draw(st.sampled_from(TARGETS), label="target")
    args, kw = data.draw(st.sampled_from(bs), label="baseline")
    if baseline_limit is not None and not _fast(f, args, kw, baseline_limit):
        return
    args, kw = list(args), dict(kw)
    slots = _slots(f, args, kw)
    if not slots:
        return
    kind, where, param, base = data.draw(st.sampled_from(slots), label="slot")
    value = data.draw(values, label="value")
    if not _allowed(value, param, base):
        return
    if kind == "pos":
        args[where] = value
    else:
        kw[where] = value
    exc, val = _call(f, args, kw, seconds)
    call = f"{name}(*{args!r:.200}, **{kw!r:.200})"
    assert not isinstance(exc, _TimeoutError), f"{call} took more than {seconds} s"
    if exc is not None:
        assert isinstance(exc, ValueError), f"{call} raised {type(exc).__name__}: {exc}"
        names = [*inspect.signature(f).parameters, param.name, param.name.rstrip("s")]
        assert any(n in str(exc) for n in names), f"{call}: {exc} names no parameter"
        return
    assert allow_value, f"{call} accepted {value!r} for {param.name} and returned {val!r:.80}"
    for v in H._numbers(val):
        assert not math.isnan(v), f"{call} returned NaN"


@settings(max_examples=80, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_non_numbers_are_rejected_with_a_named_value_error(data):
    _check(data, NOT_A_NUMBER, seconds=20, allow_value=False, baseline_limit=1.0)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("DPSYM_FUZZ_LONG"),
                    reason="the long fuzz profile: DPSYM_FUZZ_LONG=1 pytest -m slow")
@settings(max_examples=3000, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_extremes_give_a_named_value_error_or_a_finite_value(data):
    _check(data, st.one_of(NOT_A_NUMBER, EXTREME), seconds=60, allow_value=True)


def test_every_statement_has_a_fuzz_baseline_or_is_listed():
    """The fuzz reaches most statements; report the coverage so it cannot silently drop."""
    total = len(H.targets())
    assert len(TARGETS) >= 0.5 * total, f"{len(TARGETS)} of {total} targets have a baseline"


CLI_SAMPLE = [
    ["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "-1e-5"],
    ["account", "--sigma", "nan", "--q", "0.01", "--steps", "10", "--delta", "1e-5"],
    ["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-5",
     "--orders", "2:100000"],
    ["account", "--sigma", "1e300", "--q", "0.01", "--steps", "10", "--delta", "1e-5"],
    ["account", "--sigma", "1", "--q", "0.01", "--steps", "10", "--delta", "1e-5",
     "--method", "pld", "--width", "1e-300"],
    ["account", "--mu", "abc", "--delta", "1e-5"],
    ["calibrate", "--q", "0.01", "--steps", "100", "--target-eps", "-1", "--delta", "1e-5"],
    ["verify", "--dps", "4"],
    ["figures", "--out", "/nonexistent/dir"],
    ["bogus"],
]


@pytest.mark.parametrize("argv", CLI_SAMPLE, ids=lambda a: " ".join(a)[:40])
def test_cli_fuzz_sample(argv):
    r = subprocess.run([sys.executable, "-m", "dpsym.cli", *argv], capture_output=True,
                       text=True, timeout=120, cwd=ROOT)
    assert "Traceback" not in r.stderr
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
