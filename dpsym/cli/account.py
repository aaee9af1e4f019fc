"""``dpsym account``: a privacy accountant for a training run."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from mpmath import mpf

from dpsym.numerics import nstr


def _full(x: mpf, dps: int) -> str:
    """Decimal string of ``x`` at ``dps`` significant digits (JSON output)."""
    return nstr(x, dps, strip_zeros=False) if isinstance(x, mpf) else str(x)


def _parse_orders(text: str | None) -> Sequence[str] | None:
    if text is None:
        return None
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if ":" in part:  # a:b -> integers a..b
            a, b = part.split(":")
            out += [str(k) for k in range(int(a), int(b) + 1)]
        elif part:
            out.append(part)
    return out


def _sampled_gaussian(args: argparse.Namespace) -> object:
    """The DP-SGD event record described by the ``account`` flags."""
    from fractions import Fraction

    from dpsym.accounting import FixedSizeSampledGaussian, PoissonSampledGaussian
    from dpsym.errors import HypothesisError, require_integer

    ref = "dpsym account"
    sampling = args.sampling or "poisson"
    adjacency = args.adjacency or "add-remove"
    m = require_integer("--taylor-order", args.taylor_order, ref, minimum=1)
    if args.sigma is None:
        raise HypothesisError("--sigma", None, "required for DP-SGD (or give --mu)", ref)
    sizes = (args.batch_size, args.dataset_size)
    if sampling == "poisson":
        if args.q is None:
            if None in sizes:
                raise HypothesisError("--q", None, "required for Poisson sampling (or give "
                                      "--batch-size and --dataset-size, q = B/N)", ref)
            b = require_integer("--batch-size", args.batch_size, ref, minimum=1)
            n = require_integer("--dataset-size", args.dataset_size, ref, minimum=1)
            q: object = Fraction(b, n)
        elif any(v is not None for v in sizes):
            raise HypothesisError("--q", args.q, "not combined with --batch-size/--dataset-size",
                                  ref)
        else:
            q = args.q
        return PoissonSampledGaussian(q, args.sigma, args.steps, adjacency, m)
    if args.q is not None:
        raise HypothesisError("--q", args.q, f"not used with --sampling {sampling} (give "
                              "--batch-size and --dataset-size)", ref)
    for flag, v in (("--batch-size", args.batch_size), ("--dataset-size", args.dataset_size)):
        if v is None:
            raise HypothesisError(flag, None, f"required for --sampling {sampling}", ref)
    b = require_integer("--batch-size", args.batch_size, ref, minimum=1)
    n = require_integer("--dataset-size", args.dataset_size, ref, minimum=1)
    return FixedSizeSampledGaussian(b, n, args.sigma, args.steps,
                                    replacement=sampling == "fswr", adjacency=adjacency, m=m)


def _lower_line(rep: object) -> str:
    """The certified RDP and the worst-case lower bound at the integer order nearest the
    optimum (where a lower bound is known)."""
    pairs = [(a, u, lo) for (a, u), (_, lo) in zip(rep.rdp, rep.rdp_lower, strict=True)
             if lo is not None]
    if not pairs:
        return f"RDP lower bound: none known ({rep.mechanism.get('lower_bound', 'none')})"
    best = rep.order if rep.order is not None else pairs[0][0]
    a, u, lo = min(pairs, key=lambda p: abs(p[0] - best))
    return (f"RDP at alpha = {nstr(a, 6)}: certified <= {nstr(u, 10)}, worst case >= "
            f"{nstr(lo, 10)} ({rep.mechanism.get('lower_bound', '')})")


def cmd_account(args: argparse.Namespace) -> int:
    from dpsym.accounting import GaussianDP, gdp_account, rdp_account
    from dpsym.errors import HypothesisError

    if args.mu is not None:
        given = [f for f, v in (("--sigma", args.sigma), ("--q", args.q),
                                ("--batch-size", args.batch_size),
                                ("--dataset-size", args.dataset_size),
                                ("--sampling", args.sampling),
                                ("--adjacency", args.adjacency)) if v is not None]
        if given:
            raise HypothesisError("--mu", args.mu, f"not combined with {'/'.join(given)}",
                                  "dpsym account")
        rep = gdp_account(GaussianDP(args.mu), delta=args.delta, eps=args.eps, dps=args.dps)
    else:
        event = _sampled_gaussian(args)
        rep = rdp_account(event, delta=args.delta, eps=args.eps,
                          orders=_parse_orders(args.orders), conversion=args.conversion,
                          dps=args.dps, continuous=args.continuous)
    key = rep.target
    if args.json:
        obj = {
            key: _full(rep.value, args.dps),
            "delta" if key == "epsilon" else "epsilon": _full(rep.given, args.dps),
            "order": None if rep.order is None else _full(rep.order, args.dps),
            "conversion": rep.conversion,
            "rdp": [[_full(a, args.dps), _full(v, args.dps)] for a, v in rep.rdp],
            "rdp_lower": [[_full(a, args.dps), None if v is None else _full(v, args.dps)]
                          for a, v in rep.rdp_lower],
            "alternatives": {c: {key: _full(v, args.dps),
                                 "order": None if a is None else _full(a, args.dps)}
                             for c, (v, a) in rep.alternatives.items()},
            "mechanism": rep.mechanism,
            "dps": args.dps,
        }
        print(json.dumps(obj, indent=1))
        return 0
    m = rep.mechanism
    print("mechanism: " + ", ".join(f"{k}={v}" for k, v in m.items()
                                    if k not in ("reference", "bound", "lower_bound")))
    if "bound" in m:
        print(f"RDP bound: {m['bound']}")
    given = "delta" if key == "epsilon" else "eps"
    order = "" if rep.order is None else f" at order alpha = {nstr(rep.order, 6)}"
    print(f"{key} = {nstr(rep.value, min(args.dps, 20))}{order}  "
          f"({given} = {nstr(rep.given, 6)}, {rep.conversion}: {m['reference']})")
    for c, (v, a) in rep.alternatives.items():
        print(f"  {c:>12}: {key} = {nstr(v, 12)} at alpha = {nstr(a, 6)}")
    print(f"(upper bound, rounded up at {args.dps} digits)")
    if rep.rdp:
        print(_lower_line(rep))
    return 0


def _prepare(args: argparse.Namespace) -> None:
    from dpsym.errors import require_integer

    args.steps = require_integer("--steps", args.steps, "dpsym account", minimum=1)


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``account``."""
    from dpsym.rdp.conversions import CONVERSIONS

    a = sub.add_parser("account", help="privacy accountant (DP-SGD via RDP, or GDP)")
    a.add_argument("--sigma", help="noise multiplier (noise std / clipping norm)")
    a.add_argument("--sampling", choices=("poisson", "fswor", "fswr"), default=None,
                   help="minibatch sampling: poisson (default), fixed size without (fswor) "
                        "or with (fswr) replacement")
    a.add_argument("--adjacency", choices=("add-remove", "replace-one"), default=None,
                   help="neighbouring datasets (default add-remove)")
    a.add_argument("--q", help="Poisson sampling probability")
    a.add_argument("--batch-size", help="fixed batch size |B| (fswor/fswr; for poisson q = B/N)")
    a.add_argument("--dataset-size", help="dataset size |D| (with --batch-size)")
    a.add_argument("--taylor-order", default="4",
                   help="Taylor order m of the Birrell et al. 2024 bounds (default 4)")
    a.add_argument("--steps", default="1", help="number of steps (default 1)")
    a.add_argument("--mu", help="GDP parameter mu (instead of --sigma/--q)")
    g = a.add_mutually_exclusive_group(required=True)
    g.add_argument("--delta", help="report eps at this delta")
    g.add_argument("--eps", help="report delta at this eps")
    a.add_argument("--orders", help="comma list of orders; a:b means the integers a..b")
    a.add_argument("--conversion", choices=CONVERSIONS, default="balle2020")
    a.add_argument("--continuous", action="store_true",
                   help="also optimise the order over real alpha")
    a.add_argument("--dps", type=int, default=30)
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=cmd_account, prepare=_prepare)
