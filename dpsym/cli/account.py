"""``dpsym account``, ``dpsym calibrate``, ``dpsym compare``: privacy accounting for a run.

A run is described by flags (noise multiplier, sampling, adjacency, steps or epochs, or
repeated ``--phase q,sigma,steps``) and turned into events (:mod:`dpsym.accounting.events`);
``--method`` picks the accountant: ``rdp`` (certified upper bound, real orders), ``pld``
(certified interval of width ``--width``) or ``gdp`` (exact for full batch, CLT otherwise).
Flags that the chosen method would ignore are rejected (exit 2).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from fractions import Fraction

from mpmath import mpf

from dpsym.numerics import nstr

REF = "dpsym account"

SIGMA_CONVENTION = {
    "poisson": "noise std = sigma * C on the sum of gradients clipped to norm C (the "
               "noise_multiplier of Opacus and dp-accounting)",
    "fswor": "noise std = sigma * C on the sum of clipped gradients; a replaced example "
             "moves the sum by up to 2C, so dp-accounting's SampledWithoutReplacement + "
             "REPLACE_ONE noise_multiplier z corresponds to sigma = 2 z here",
    "fswr": "noise std = sigma * C on the sum of clipped gradients (Birrell et al. 2024, "
            "eq. (2))",
}


def _full(x: mpf | None, dps: int) -> str | None:
    """Decimal string of ``x`` at ``dps`` significant digits (JSON output)."""
    if x is None:
        return None
    return nstr(x, dps, strip_zeros=False) if isinstance(x, mpf) else str(x)


def _parse_orders(text: str | None) -> Sequence[str] | None:
    """``--orders``: a comma list; ``a:b`` means the integers a..b.  The count and the largest
    order are checked against the caps before any range is materialised."""
    from dpsym.errors import require_integer
    from dpsym.rdp.arb_series import MAX_ORDER, MAX_ORDERS

    if text is None:
        return None
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if ":" in part:  # a:b -> integers a..b
            ends = part.split(":")
            if len(ends) != 2:
                _err("--orders", text, f"items a or a:b (got {part!r})")
            a, b = (require_integer("--orders", e.strip(), REF, minimum=2, maximum=None)
                    for e in ends)
            if b < a:
                _err("--orders", text, f"a <= b in {part!r}")
            if b > MAX_ORDER:
                _err("--orders", text, f"orders <= {MAX_ORDER} (the cap on the order)")
            if len(out) + b - a + 1 > MAX_ORDERS:
                _err("--orders", text, f"at most {MAX_ORDERS} orders (the cap on their number)")
            out += [str(k) for k in range(a, b + 1)]
        elif part:
            out.append(part)
            if len(out) > MAX_ORDERS:
                _err("--orders", text, f"at most {MAX_ORDERS} orders (the cap on their number)")
    if not out:
        _err("--orders", text, "at least one order")
    return out


class Progress:
    """Messages on stderr, but only once an operation has run for more than 2 s."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.monotonic()

    def __call__(self, msg: str) -> None:
        if self.enabled and time.monotonic() - self.start > 2:
            print(f"dpsym: {msg}", file=sys.stderr, flush=True)


# --- the run -------------------------------------------------------------------------------


def _err(flag: str, value: object, hypothesis: str) -> None:
    from dpsym.errors import HypothesisError

    raise HypothesisError(flag, value, hypothesis, REF)


def _exact(flag: str, text: str) -> Fraction:
    from dpsym.rdp.arb_series import exact_fraction

    return exact_fraction(text, flag, REF)


def _phase(text: str) -> tuple[str, str, int]:
    from dpsym.errors import require_integer

    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 3:
        _err("--phase", text, "the form q,sigma,steps")
    return parts[0], parts[1], require_integer("--phase steps", parts[2], REF, minimum=1)


def build_run(args: argparse.Namespace) -> tuple[object, str, dict[str, str]]:
    """(event, relation, description) for the run flags of ``account``/``calibrate``."""
    from dpsym.accounting import (
        ComposedEvent,
        FixedSizeSampledEvent,
        GaussianEvent,
        PoissonSampledEvent,
        SelfComposedEvent,
    )
    from dpsym.errors import require_integer

    relation = args.adjacency or "add-remove"
    sampling = args.sampling or "poisson"
    if args.phase:
        for flag, v in (("--sigma", args.sigma), ("--q", args.q), ("--steps", args.steps),
                        ("--epochs", args.epochs), ("--batch-size", args.batch_size),
                        ("--dataset-size", args.dataset_size), ("--sampling", args.sampling)):
            if v is not None:
                _err(flag, v, "not combined with --phase (each phase gives q,sigma,steps)")
        phases = [_phase(p) for p in args.phase]
        events = tuple(SelfComposedEvent(PoissonSampledEvent(q, GaussianEvent(s)), t)
                       for q, s, t in phases)
        desc = {"sampling": "poisson", "adjacency": relation,
                "phases": "; ".join(f"q={q}, sigma={s}, steps={t}" for q, s, t in phases)}
        return ComposedEvent(events), relation, desc
    if args.sigma is None:
        _err("--sigma", None, "required (the noise multiplier; or give --mu or --phase)")
    sigma = args.sigma
    if _exact("sigma", sigma) <= 0:
        _err("sigma", sigma, "sigma > 0 (a noise multiplier)")
    sizes = (args.batch_size, args.dataset_size)
    if sampling == "poisson":
        if args.q is None:
            if None in sizes:
                _err("--q", None, "required for Poisson sampling (or give --batch-size and "
                     "--dataset-size, q = B/N)")
            b = require_integer("--batch-size", args.batch_size, REF, minimum=1)
            n = require_integer("--dataset-size", args.dataset_size, REF, minimum=1)
            q = Fraction(b, n)
        elif args.batch_size is not None:
            _err("--q", args.q, "not combined with --batch-size (q = B/N)")
        else:
            q = _exact("--q", args.q)
            if not 0 <= q <= 1:
                _err("q", args.q, "0 <= q <= 1 (a sampling probability)")
    else:
        if args.q is not None:
            _err("--q", args.q, f"not used with --sampling {sampling} (give --batch-size and "
                 "--dataset-size)")
        for flag, v in (("--batch-size", args.batch_size),
                        ("--dataset-size", args.dataset_size)):
            if v is None:
                _err(flag, None, f"required for --sampling {sampling}")
        b = require_integer("--batch-size", args.batch_size, REF, minimum=1)
        n = require_integer("--dataset-size", args.dataset_size, REF, minimum=1)
        q = Fraction(b, n)
    steps = _steps(args, q)
    if sampling == "poisson":
        leaf = PoissonSampledEvent(q, GaussianEvent(sigma))
    else:
        try:
            leaf = FixedSizeSampledEvent(n, b, GaussianEvent(sigma),
                                         replacement=sampling == "fswr")
        except ValueError as exc:
            raise exc from None
        if sampling == "fswr" and relation == "replace-one":
            _err("adjacency", relation, "add-remove for sampling with replacement (FSwR is "
                 "analysed under add/remove only; Birrell et al. 2024, Thm 3.6)")
    desc = {"sampling": sampling, "adjacency": relation, "q": str(q), "sigma": str(sigma),
            "steps": str(steps)}
    return SelfComposedEvent(leaf, steps), relation, desc


def _steps(args: argparse.Namespace, q: Fraction) -> int:
    """--steps, or ceil(epochs / q) from --epochs (more steps: the conservative side)."""
    from dpsym.errors import require_integer

    if args.steps is not None and args.epochs is not None:
        _err("--epochs", args.epochs, "not combined with --steps")
    if args.steps is not None:
        return require_integer("--steps", args.steps, REF, minimum=1)
    if args.epochs is None:
        _err("--steps", None, "required (the number of steps; or --epochs with "
             "--dataset-size)")
    if args.dataset_size is None:
        _err("--epochs", args.epochs, "used with --dataset-size (steps = epochs N / B)")
    e = _exact("--epochs", args.epochs)
    if e <= 0:
        _err("--epochs", args.epochs, "epochs > 0")
    return math.ceil(e / q)


def _check_method_flags(args: argparse.Namespace) -> None:
    """Reject flags that the chosen method would ignore."""
    method = args.method
    rdp_only = (("--orders", args.orders), ("--conversion", args.conversion),
                ("--compare", args.compare or None), ("--continuous", args.continuous or None),
                ("--taylor-order", args.taylor_order))
    if method != "rdp":
        for flag, v in rdp_only:
            if v is not None:
                _err(flag, v, f"used with --method rdp (ignored by --method {method})")
    if method != "pld" and getattr(args, "width", None) is not None:
        _err("--width", args.width, f"used with --method pld (ignored by --method {method})")
    if args.orders is not None and args.continuous:
        _err("--continuous", True, "not combined with --orders (the search over real alpha "
             "is the default when --orders is absent)")
    if args.mu is not None and method != "gdp":
        _err("--mu", args.mu, "used with --method gdp (or without --method)")


def _accountant(args: argparse.Namespace, relation: str, progress: Progress):
    from dpsym.accounting import GdpAccountant, PldAccountant, RdpAccountant
    from dpsym.errors import require_integer

    if args.method == "rdp":
        m = 4 if args.taylor_order is None else require_integer(
            "--taylor-order", args.taylor_order, REF, minimum=1)
        return RdpAccountant(relation, orders=_parse_orders(args.orders),
                             conversion=args.conversion or "balle2020", taylor_order=m,
                             dps=args.dps)
    if args.method == "pld":
        width = 1e-3 if args.width is None else float(_exact("--width", args.width))
        if not width > 0:
            _err("--width", args.width, "width > 0")
        return PldAccountant(relation, width=width, rel_width=width, progress=progress)
    return GdpAccountant(relation, dps=args.dps)


# --- account -------------------------------------------------------------------------------


def _lower_line(rep: object) -> str | None:
    pairs = [(a, u, lo) for (a, u), (_, lo) in zip(rep.rdp, rep.rdp_lower, strict=True)
             if lo is not None]
    if not rep.rdp:
        return None
    if not pairs:
        return f"RDP lower bound: none known ({rep.mechanism.get('lower_bound', 'none')})"
    best = rep.order if rep.order is not None else pairs[0][0]
    a, u, lo = min(pairs, key=lambda p: abs(p[0] - best))
    return (f"RDP at alpha = {nstr(a, 6)}: certified <= {nstr(u, 10)}, worst case >= "
            f"{nstr(lo, 10)} ({rep.mechanism.get('lower_bound', '')})")


def _run_account(args: argparse.Namespace, progress: Progress):
    """(result, description, accountant) of ``account`` (raises on bad input)."""
    from dpsym.accounting import GaussianDP, gdp_account

    if args.mu is not None:
        given = [f for f, v in (("--sigma", args.sigma), ("--q", args.q),
                                ("--batch-size", args.batch_size),
                                ("--dataset-size", args.dataset_size),
                                ("--sampling", args.sampling), ("--steps", args.steps),
                                ("--epochs", args.epochs), ("--phase", args.phase),
                                ("--adjacency", args.adjacency)) if v is not None]
        if given:
            _err("--mu", args.mu, f"not combined with {'/'.join(given)}")
        rep = gdp_account(GaussianDP(args.mu), delta=args.delta, eps=args.eps, dps=args.dps)
        return rep, {"mu": str(args.mu)}, None
    event, relation, desc = build_run(args)
    acc = _accountant(args, relation, progress).compose(event)
    if args.method == "rdp":
        kw = {"compare": args.compare, "lower": True}
        rep = (acc.get_epsilon(args.delta, **kw) if args.delta is not None
               else acc.get_delta(args.eps, **kw))
    else:
        rep = acc.get_epsilon(args.delta) if args.delta is not None else acc.get_delta(args.eps)
    return rep, desc, acc


def _pld_json(iv: object, desc: dict[str, str], args: argparse.Namespace) -> dict:
    key = iv.target
    other = "delta" if key == "epsilon" else "epsilon"
    from dpsym.balls import decimal_string

    up, low = decimal_string(iv.upper, 17, "up"), decimal_string(iv.lower, 17, "down")
    given = args.delta if key == "epsilon" else args.eps
    return {key: up, f"{key}_lower": low, f"{key}_upper": up, other: str(given),
            "width": _full(iv.width, 6), "method": "pld", "certified": True,
            "mechanism": desc, "sigma_convention": SIGMA_CONVENTION[desc.get("sampling",
                                                                             "poisson")],
            "directions": iv.directions, "cpu_seconds": round(iv.seconds, 3)}


def cmd_account(args: argparse.Namespace) -> int:
    progress = Progress(not args.no_progress)
    rep, desc, acc = _run_account(args, progress)
    if args.plot:
        from dpsym.cli.plots import privacy_profile_figure

        fig = privacy_profile_figure(acc, rep)
        fig.savefig(args.plot, dpi=150, bbox_inches="tight")
    if args.method == "pld" and args.mu is None:
        if args.json:
            print(json.dumps(_pld_json(rep, desc, args), indent=1))
            return 0
        key, other = rep.target, ("delta" if rep.target == "epsilon" else "eps")
        print("mechanism: " + ", ".join(f"{k}={v}" for k, v in desc.items()))
        print(f"sigma convention: {SIGMA_CONVENTION[desc.get('sampling', 'poisson')]}")
        print(f"{key} in [{nstr(rep.lower, 10)}, {nstr(rep.upper, 10)}]  ({other} = "
              f"{nstr(rep.given, 6)}; certified PLD interval, width {nstr(rep.width, 3)})")
        for i, d in enumerate(rep.directions):
            if d:
                print(f"  pair {i + 1}: [{d['lower']}, {d['upper']}], h = {d['h_lower']}, "
                      f"{d['grid_points']} grid points")
        return 0
    if args.json:
        obj = rep.to_dict()
        obj["method"] = "gdp" if args.mu is not None else args.method
        obj["mechanism"] = {**desc, **obj["mechanism"]}
        if args.mu is None:
            obj["sigma_convention"] = SIGMA_CONVENTION[desc.get("sampling", "poisson")]
        print(json.dumps(obj, indent=1))
        return 0
    key = rep.target
    m = {**desc, **rep.mechanism}
    print("mechanism: " + ", ".join(f"{k}={v}" for k, v in m.items()
                                    if k not in ("reference", "bound", "lower_bound")))
    if args.mu is None:
        print(f"sigma convention: {SIGMA_CONVENTION[desc.get('sampling', 'poisson')]}")
    if "bound" in m:
        print(f"RDP bound: {m['bound']}")
    given = "delta" if key == "epsilon" else "eps"
    order = "" if rep.order is None else f" at order alpha = {nstr(rep.order, 8)}"
    print(f"{key} = {nstr(rep.value, min(args.dps, 20))}{order}  "
          f"({given} = {nstr(rep.given, 6)}, {rep.conversion}: {m['reference']})")
    for c, (v, a) in rep.alternatives.items():
        at = "" if a is None else f" at alpha = {nstr(a, 6)}"
        print(f"  {c:>14}: {key} = {nstr(v, 12)}{at}")
    if rep.conversion == "gdp_clt":
        print("(CLT approximation, not a certified bound)")
    else:
        print(f"(upper bound, rounded up at {args.dps} digits)")
    line = _lower_line(rep)
    if line:
        print(line)
    return 0


# --- calibrate -----------------------------------------------------------------------------


def cmd_calibrate(args: argparse.Namespace) -> int:
    from dpsym.accounting import calibrate_noise

    if args.sigma is not None:
        _err("--sigma", args.sigma, "not given to calibrate (sigma is what it finds)")
    if args.mu is not None or args.phase:
        _err("--mu" if args.mu is not None else "--phase", args.mu or args.phase,
             "not used by calibrate (one phase: --q/--batch-size, --steps/--epochs)")
    args.sigma = "1"  # a placeholder to build the run's shape; replaced per candidate
    _event, relation, desc = build_run(args)
    progress = Progress(not args.no_progress)

    def make(s: Fraction) -> object:
        args.sigma = s
        return build_run(args)[0]

    t0 = time.process_time()
    cal = calibrate_noise(make, args.target_eps, args.delta, method=args.method,
                          relation=relation, sigma_step=args.sigma_step, width=1e-3
                          if args.width is None else float(args.width))
    progress(f"{cal.evaluations} accountant evaluations")
    desc.pop("sigma", None)
    if args.json:
        obj = {"sigma": _full(mpf(cal.sigma.numerator) / cal.sigma.denominator, 12),
               "sigma_exact": str(cal.sigma), "epsilon": _full(cal.epsilon, 17),
               "target_epsilon": str(args.target_eps), "delta": str(args.delta),
               "method": args.method, "mechanism": desc, "sigma_step": str(args.sigma_step),
               "sigma_convention": SIGMA_CONVENTION[desc.get("sampling", "poisson")],
               "cpu_seconds": round(time.process_time() - t0, 3)}
        print(json.dumps(obj, indent=1))
        return 0
    print("mechanism: " + ", ".join(f"{k}={v}" for k, v in desc.items()))
    print(f"sigma convention: {SIGMA_CONVENTION[desc.get('sampling', 'poisson')]}")
    print(f"sigma = {nstr(mpf(cal.sigma.numerator) / cal.sigma.denominator, 12)}: the "
          f"smallest multiple of {args.sigma_step} with certified eps <= {args.target_eps} "
          f"at delta = {args.delta} ({args.method})")
    print(f"epsilon = {nstr(cal.epsilon, 12)}")
    return 0


# --- compare -------------------------------------------------------------------------------


def cmd_compare(args: argparse.Namespace) -> int:
    """Every dpsym method on the same run, then the peers that are installed (estimates)."""
    from dpsym.accounting import GdpAccountant, PldAccountant, RdpAccountant

    event, relation, desc = build_run(args)
    progress = Progress(not args.no_progress)
    rows: list[tuple[str, str, str]] = []
    r = RdpAccountant(relation, dps=args.dps).compose(event).get_epsilon(args.delta)
    rows.append(("dpsym rdp (real alpha)", nstr(r.value, 10), "certified upper bound"))
    try:
        iv = PldAccountant(relation, width=1e-3 if args.width is None else float(args.width),
                           progress=progress).compose(event).get_epsilon(args.delta)
        rows.append(("dpsym pld", f"[{nstr(iv.lower, 10)}, {nstr(iv.upper, 10)}]",
                     "certified interval"))
    except ValueError as exc:
        rows.append(("dpsym pld", "-", str(exc)))
    gacc = GdpAccountant(relation, dps=args.dps)
    if gacc.supports(event):
        g = gacc.compose(event).get_epsilon(args.delta)
        rows.append(("dpsym gdp", nstr(g.value, 10), "exact" if g.conversion == "gdp_exact"
                     else "CLT approximation, not a bound"))
    rows += _peer_rows(event, relation, args.delta)
    if args.json:
        print(json.dumps({"mechanism": desc, "delta": str(args.delta),
                          "rows": [dict(zip(("method", "epsilon", "note"), row, strict=True))
                                   for row in rows]}, indent=1))
        return 0
    print("mechanism: " + ", ".join(f"{k}={v}" for k, v in desc.items()))
    width = max(len(m) for m, _, _ in rows)
    for m, v, note in rows:
        print(f"{m:<{width}}  eps = {v:<30} {note}")
    return 0


def _peer_rows(event: object, relation: str, delta: str) -> list[tuple[str, str, str]]:
    """The peers on the same run, when installed and the run maps: every peer
    (:func:`dpsym.cli.compare.peer_rows`) for one Poisson phase, dp-accounting's RDP and PLD
    (which compose phases) for several."""
    from dpsym.accounting import flatten
    from dpsym.accounting.events import GaussianEvent, PoissonSampledEvent
    from dpsym.cli.compare import peer_rows

    leaves = flatten(event)
    if relation != "add-remove" or not all(
            isinstance(x, PoissonSampledEvent) and isinstance(x.event, GaussianEvent)
            for x, _ in leaves):
        return [("peers", "-", "run not mapped (Poisson add/remove only)")]
    if len(leaves) == 1:
        (x, count), = leaves
        return peer_rows(x.sampling_probability, x.event.noise_multiplier, count, delta)
    rows: list[tuple[str, str, str]] = []
    try:
        import dp_accounting as dpa
    except ImportError:
        return [("dp-accounting", "-", "not installed (extra [crosscheck])")]
    dp_ev = dpa.ComposedDpEvent([dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(
        float(x.sampling_probability), dpa.GaussianDpEvent(float(x.event.noise_multiplier))),
        c) for x, c in leaves])
    for name, acc in (("dp-accounting rdp", dpa.rdp.RdpAccountant()),
                      ("dp-accounting pld", dpa.pld.PLDAccountant())):
        acc.compose(dp_ev)
        rows.append((name, f"{acc.get_epsilon(float(delta)):.10g}", "float64 estimate"))
    return rows


# --- parsers -------------------------------------------------------------------------------


def _prepare(args: argparse.Namespace) -> None:
    from dpsym.rdp.conversions import CONVERSIONS

    if args.method is None:
        args.method = "gdp" if args.mu is not None else "rdp"
    if args.conversion is not None and args.conversion not in CONVERSIONS:
        _err("--conversion", args.conversion, f"one of {', '.join(CONVERSIONS)}")
    _check_method_flags(args)


def _prepare_compare(args: argparse.Namespace) -> None:
    """compare runs every method: --method is not for it; --width sets the PLD row."""
    if args.method is not None:
        _err("--method", args.method, "not used by compare (it runs every method)")
    args.method = "rdp"
    for flag in ("mu", "orders", "conversion", "taylor_order"):
        if getattr(args, flag) is not None:
            _err(f"--{flag.replace('_', '-')}", getattr(args, flag), "not used by compare")


def _run_flags(p: argparse.ArgumentParser, with_sigma: bool = True) -> None:
    if with_sigma:
        p.add_argument("--sigma", "--noise-multiplier", dest="sigma",
                       help="noise multiplier (noise std / clipping norm)")
    p.add_argument("--sampling", choices=("poisson", "fswor", "fswr"), default=None,
                   help="minibatch sampling: poisson (default), fixed size without (fswor) "
                        "or with (fswr) replacement")
    p.add_argument("--adjacency", choices=("add-remove", "replace-one"), default=None,
                   help="neighbouring datasets (default add-remove)")
    p.add_argument("--q", "--sample-rate", dest="q", help="Poisson sampling probability")
    p.add_argument("--batch-size", help="fixed batch size |B| (fswor/fswr; for poisson q = B/N)")
    p.add_argument("--dataset-size", help="dataset size |D| (with --batch-size or --epochs)")
    p.add_argument("--steps", default=None, help="number of steps (required, or --epochs)")
    p.add_argument("--epochs", default=None,
                   help="epochs; steps = ceil(epochs / q), q = B/N (needs --dataset-size)")
    p.add_argument("--phase", action="append", default=None, metavar="Q,SIGMA,STEPS",
                   help="a Poisson phase (repeatable): heterogeneous composition")
    p.add_argument("--method", choices=("rdp", "pld", "gdp"), default=None,
                   help="rdp: certified bound over real orders (default); pld: certified "
                        "interval; gdp: exact for full batch, CLT for Poisson")
    p.add_argument("--width", default=None,
                   help="pld: target width of the certified interval (default 1e-3)")
    p.add_argument("--taylor-order", default=None,
                   help="rdp: Taylor order m of the Birrell et al. 2024 bounds (default 4)")
    p.add_argument("--mu", help="GDP parameter mu (instead of a DP-SGD run)")
    p.add_argument("--orders", help="rdp: comma list of orders; a:b means the integers a..b "
                                    "(default: search real alpha)")
    p.add_argument("--conversion", default=None,
                   help="rdp: RDP -> (eps, delta) conversion: mironov2017, balle2020 (default), "
                        "asoodeh2021 (optimal), alc2021_lemma1, best")
    p.add_argument("--compare", action="store_true",
                   help="rdp: also report the other conversions at the same orders")
    p.add_argument("--continuous", action="store_true",
                   help="rdp: search real alpha (the default; kept for compatibility)")
    from dpsym.cli.ledger import dps_arg

    p.add_argument("--dps", type=dps_arg, default=30,
                   help="working precision in digits, 5..1000 (default 30)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-progress", action="store_true", help="no progress messages")


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``account``, ``calibrate`` and ``compare``."""
    a = sub.add_parser("account", help="privacy accountant: eps(delta) or delta(eps) of a run")
    _run_flags(a)
    g = a.add_mutually_exclusive_group(required=True)
    g.add_argument("--delta", help="report eps at this delta")
    g.add_argument("--eps", help="report delta at this eps")
    a.add_argument("--plot", default=None, metavar="FILE",
                   help="draw the privacy profile: delta(eps) with its interval, eps vs steps")
    a.set_defaults(func=cmd_account, prepare=_prepare)

    c = sub.add_parser("calibrate", help="smallest noise multiplier with certified eps <= E")
    _run_flags(c, with_sigma=True)
    c.add_argument("--target-eps", required=True, help="the eps to reach")
    c.add_argument("--delta", required=True)
    c.add_argument("--sigma-step", default="0.001", help="grid of sigma (default 0.001)")
    c.set_defaults(func=cmd_calibrate, prepare=_prepare, eps=None, plot=None)

    m = sub.add_parser("compare", help="every method (and installed peers) on one run")
    _run_flags(m)
    m.add_argument("--delta", required=True)
    m.set_defaults(func=cmd_compare, prepare=_prepare_compare, eps=None, plot=None)
