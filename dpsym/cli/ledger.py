"""``dpsym verify``, ``dpsym figures`` and ``dpsym reproduce``: the ledger and the figures."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

PAPER_CHOICES = ("core", "bok2024", "birrell2024", "bravo2025", "liang2025", "tran2022")


def _run_claims(paper: str | None, dps: int, progress: bool) -> list[tuple[object, object]]:
    from dpsym.claims import all_claims

    claims = all_claims(paper)
    it = claims
    if progress:
        from tqdm import tqdm

        it = tqdm(claims, desc="claims", unit="claim", file=sys.stderr)
    return [(c, c.run(dps)) for c in it]


def _print_table(rows: list[tuple[object, object]]) -> None:
    from dpsym.claims import PAPERS, summarize

    by_paper: dict[str, list] = {}
    for c, o in rows:
        by_paper.setdefault(c.paper, []).append((c, o))
    for paper, items in by_paper.items():
        print(f"\n== {paper}: {PAPERS[paper]} ==")
        header = ("id", "ref", "printed", "recomputed", "digits", "verdict")
        table = [header] + [
            (c.id, c.ref, c.printed or "-", o.value or "-",
             "exact" if o.digits is None else str(o.digits), o.verdict)
            for c, o in items
        ]
        widths = [min(max(len(r[i]) for r in table), 48) for i in range(len(header))]
        for r in table:
            print("  ".join(v[: widths[i]].ljust(widths[i]) for i, v in enumerate(r)))
        for c, o in items:
            if o.verdict in ("erratum", "unresolved", "failed"):
                extra = f" corrected: {o.corrected}." if o.corrected else ""
                print(f"  [{o.verdict}] {c.id}:{extra} {o.evidence}")
    counts = summarize(rows)
    print("\n" + ", ".join(f"{v} {k}" for k, v in counts.items()) + f" ({len(rows)} claims)")


def cmd_verify(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    rows = _run_claims(args.paper, args.dps, progress=not args.json and args.progress)
    if args.json:
        print(json.dumps([
            {"id": c.id, "paper": c.paper, "ref": c.ref, "kind": c.kind, "printed": c.printed,
             "value": o.value, "digits": o.digits, "verdict": o.verdict,
             "corrected": o.corrected, "evidence": o.evidence}
            for c, o in rows
        ], indent=1))
    else:
        _print_table(rows)
        print(f"verified at dps={args.dps} in {time.perf_counter() - t0:.1f} s")
    return 1 if any(o.verdict == "failed" for _, o in rows) else 0


def cmd_figures(args: argparse.Namespace) -> int:
    import matplotlib

    matplotlib.use("Agg")  # files only: never open a window
    from dpsym.figures import save_all

    paths = save_all(Path(args.out), args.paper, progress=args.progress)
    for p in paths:
        print(p)
    return 0


def cmd_reproduce(args: argparse.Namespace) -> int:
    status = cmd_verify(args)
    args.progress = True
    cmd_figures(args)
    return status


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``verify``, ``figures`` and ``reproduce``."""

    def paper_opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--paper", choices=PAPER_CHOICES, default=None)
        sp.add_argument("--dps", type=int, default=30, help="working precision (digits)")
        sp.add_argument("--json", action="store_true", help="rows as a JSON list")
        sp.add_argument("--no-progress", dest="progress", action="store_false")

    v = sub.add_parser("verify", help="recompute every ledger claim")
    paper_opts(v)
    v.set_defaults(func=cmd_verify)

    f = sub.add_parser("figures", help="regenerate figures (PNG + PDF)")
    f.add_argument("--paper", choices=PAPER_CHOICES, default=None)
    f.add_argument("--out", default="figures")
    f.add_argument("--no-progress", dest="progress", action="store_false")
    f.set_defaults(func=cmd_figures)

    r = sub.add_parser("reproduce", help="verify every claim and regenerate every figure")
    paper_opts(r)
    r.add_argument("--out", default="figures")
    r.set_defaults(func=cmd_reproduce)
