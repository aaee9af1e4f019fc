"""``dpsym compare``: the installed peer accountants beside dpsym on the user's run.

Kept apart from :mod:`dpsym.cli.account`: when the accountant's own ``compare`` subcommand
(every dpsym method on one run) is registered first, this module does not register a second
one; that command shows the peers through :func:`peer_rows`.
"""

from __future__ import annotations

import argparse
import json

#: The orders of the RDP peers' default grids (Opacus and dp-accounting: 1.1 to 10.9 by
#: 0.1, then integers), added to dpsym's own with ``--orders peers``.
PEER_ORDERS = (*(f"{1 + k / 10:.1f}" for k in range(1, 100)), *range(11, 64), 128, 256, 512,
               1024)


def _dpsym_epsilon(q: str, sigma: str, steps: int, delta: str, dps: int,
                   peer_orders: bool) -> tuple[object, object]:
    """dpsym's certified eps: RDP of the run at dpsym's default orders (and the peers' with
    ``peer_orders``), Balle et al. 2020's conversion (the one the RDP peers use), rounded
    up."""
    from dpsym.accounting import PoissonSampledGaussian, default_orders
    from dpsym.rdp.conversions import rdp_to_epsilon

    event = PoissonSampledGaussian(q, sigma, steps)
    orders = list(default_orders(event))
    if peer_orders:
        have = {float(a) for a in orders}
        orders += [a for a in PEER_ORDERS if float(a) not in have]
    rdp = [event.rdp(a, dps=dps) for a in orders]
    return rdp_to_epsilon(orders, rdp, delta, conversion="balle2020", dps=dps)


def cmd_compare(args: argparse.Namespace) -> int:
    from mpmath import mpf

    from dpsym.errors import require, require_integer
    from dpsym.numerics import nstr, precision, to_mpf
    from dpsym.peers.live import available, compare_run

    ref = "dpsym compare"
    steps = require_integer("--steps", args.steps, ref, minimum=1)
    with precision(30):
        q = to_mpf(args.q, "--q", ref)
        s = to_mpf(args.sigma, "--sigma", ref)
        d = to_mpf(args.delta, "--delta", ref)
    require(0 < q < 1, "--q", args.q, "0 < q < 1", ref)
    require(s > 0, "--sigma", args.sigma, "sigma > 0", ref)
    require(0 < d < 1, "--delta", args.delta, "0 < delta < 1", ref)
    eps, order = _dpsym_epsilon(args.q, args.sigma, steps, args.delta, args.dps,
                                args.orders == "peers")
    versions = available()
    peers = compare_run(float(args.q), float(args.sigma), steps, float(args.delta))

    def diff(v: float | None) -> tuple[object, object]:
        if v is None:
            return None, None
        with precision(30):
            dv = mpf(v) - eps
            return dv, dv / eps

    if args.json:
        print(json.dumps({
            "run": {"q": args.q, "sigma": args.sigma, "steps": steps, "delta": args.delta},
            "dpsym": {"epsilon": nstr(eps, args.dps, strip_zeros=False),
                      "order": nstr(order, 10), "method": "RDP, balle2020, rounded up"},
            "peers": [{"library": p.library, "version": p.version, "method": p.method,
                       "epsilon": p.epsilon, "error": p.error, "bound": p.bound,
                       "difference": None if p.epsilon is None else float(diff(p.epsilon)[0])}
                      for p in peers],
            "not_installed": [k for k, v in versions.items() if v is None]}, indent=1))
        return 0
    print(f"run: q = {args.q}, sigma = {args.sigma}, {steps} steps, delta = {args.delta} "
          "(Poisson sampling, add/remove)")
    print(f"dpsym: eps = {nstr(eps, 12)} at alpha = {nstr(order, 6)} (RDP, Balle et al. 2020 "
          f"conversion, certified upper bound rounded up at {args.dps} digits)")
    if peers:
        print(f"{'library':<15} {'method':<44} {'eps':>14} {'peer - dpsym':>13} {'relative':>10}")
    for p in peers:
        if p.epsilon is None:
            print(f"{p.library:<15} {p.method:<44} failed: {p.error}")
            continue
        dv, rv = diff(p.epsilon)
        flag = "" if p.bound else "  (approximation, not a bound)"
        print(f"{p.library:<15} {p.method:<44} {p.epsilon:>14.8g} {nstr(dv, 4):>13} "
              f"{nstr(100 * rv, 3) + '%':>10}{flag}")
    missing = [k for k, v in versions.items() if v is None]
    if missing:
        print("not installed (skipped): " + ", ".join(missing)
              + "  (pip install -e '.[crosscheck]')")
    print("A PLD/PRV peer below dpsym's RDP bound is expected (a tighter method). An RDP peer "
          "may sit slightly below it only through a finer grid of orders (compare with "
          "--orders peers); the peer audit chapter shows where each peer is off.")
    return 0


def peer_rows(q: object, sigma: object, steps: int, delta: object) -> list[tuple[str, str, str]]:
    """(method, eps, note) for every peer on ``steps`` Poisson-subsampled Gaussian steps
    (add/remove): installed peers run (:func:`dpsym.peers.live.compare_run`), absent ones
    listed as not installed.  The values are float64 estimates, shown, never trusted."""
    from dpsym.peers.live import available, compare_run

    rows = []
    for p in compare_run(float(q), float(sigma), int(steps), float(delta)):
        if p.epsilon is None:
            rows.append((f"{p.library} {p.method}", "-", f"failed: {p.error}"))
        else:
            rows.append((f"{p.library} {p.method}", f"{p.epsilon:.10g}",
                         f"{p.library} {p.version}, float64"
                         + ("" if p.bound else ", an approximation, not a bound")))
    rows += [(lib, "-", "not installed (extra [crosscheck])")
             for lib, v in available().items() if v is None]
    return rows


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``compare`` (unless the accountant's ``compare`` is already registered)."""
    if "compare" in sub.choices:
        return
    c = sub.add_parser("compare", help="run the installed peer accountants (dp-accounting, "
                                       "Opacus, prv-accountant, autodp) on a DP-SGD run "
                                       "beside dpsym")
    c.add_argument("--q", required=True, help="Poisson sampling probability")
    c.add_argument("--sigma", required=True, help="noise multiplier")
    c.add_argument("--steps", required=True, help="number of steps")
    c.add_argument("--delta", required=True, help="target delta")
    c.add_argument("--orders", choices=("dpsym", "peers"), default="dpsym",
                   help="dpsym's RDP orders: its defaults, or also every order of the RDP "
                        "peers' default grids (slower at fractional orders)")
    c.add_argument("--dps", type=int, default=30)
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_compare)
