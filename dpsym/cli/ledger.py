"""``dpsym verify``, ``dpsym figures`` and ``dpsym reproduce``: the ledger and the figures."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from pathlib import Path

WIDTH = 100


def paper_id(text: str) -> str:
    """``--paper``: a covered paper's id (an unknown id lists the covered ones)."""
    from dpsym.papers import registry

    try:
        return registry.paper(text).id
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def dps_arg(text: str) -> int:
    """``--dps``: an integer in [5, 1000] (dpsym.errors.MAX_DPS)."""
    from dpsym.errors import require_dps

    try:
        return require_dps(int(text) if text.strip().lstrip("+-").isdigit() else text, "--dps")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _run_claims(paper: str | None, dps: int, progress: bool) -> list[tuple[object, object]]:
    from dpsym.claims import all_claims

    claims = all_claims(paper)
    it = claims
    if progress:
        from tqdm import tqdm

        it = tqdm(claims, desc="claims", unit="claim", file=sys.stderr)
    return [(c, c.run(dps)) for c in it]


def _wrap(label: str, text: str, indent: int = 4) -> list[str]:
    pad = " " * indent
    return textwrap.wrap(f"{label}{text}", WIDTH, initial_indent=pad,
                         subsequent_indent=pad + "  ", break_on_hyphens=False) or [pad + label]


def _verdict(c: object, o: object) -> str:
    return o.verdict if c.severity is None or o.verdict != "erratum" else f"erratum: {c.severity}"


def format_rows(rows: list[tuple[object, object]]) -> list[str]:
    """The ledger as text lines of at most 100 columns (ids and verdicts in full)."""
    from dpsym.papers import registry

    lines: list[str] = []
    by_paper: dict[str, list] = {}
    for c, o in rows:
        by_paper.setdefault(c.paper, []).append((c, o))
    for pid, items in by_paper.items():
        p = registry.paper(pid)
        head = f"== {pid}: {p.short}, {p.title}" + (f" (arXiv:{p.arxiv})" if p.arxiv else "")
        lines += ["", *textwrap.wrap(head, WIDTH, subsequent_indent="   ")]
        for c, o in items:
            verdict = f"[{_verdict(c, o)}]"
            if len(c.id) + 2 + len(verdict) <= WIDTH:
                lines.append(c.id + verdict.rjust(WIDTH - len(c.id)))
            else:
                lines += [c.id, verdict.rjust(WIDTH)]
            digits = "" if o.digits is None else f" ({o.digits} stable digits)"
            facts = f"{c.ref} | printed: {c.printed or '-'} | recomputed: {o.value or '-'}"
            lines += _wrap("", facts + digits)
            if o.verdict != "reproduced":
                if o.corrected:
                    lines += _wrap("corrected: ", o.corrected)
                lines += _wrap("evidence: ", o.evidence)
    return lines


def summary_lines(rows: list[tuple[object, object]]) -> list[str]:
    """Counts by paper and verdict, reproduced split into printed/derived, errata by
    severity."""
    from dpsym.claims import SEVERITIES, count_by_kind, summarize

    lines = ["", "== summary"]
    by_paper: dict[str, list] = {}
    for c, o in rows:
        by_paper.setdefault(c.paper, []).append((c, o))
    for pid, items in [*by_paper.items(), ("all", rows)]:
        counts = summarize(items)
        kinds = count_by_kind(items)
        verdicts = ", ".join(f"{n} {v}" for v, n in counts.items())
        sev = ", ".join(f"{kinds[s]} {s}" for s in SEVERITIES if kinds[s])
        text = (f"{pid}: {len(items)} claims: {verdicts}; reproduced = {kinds['printed']} "
                f"printed + {kinds['derived']} derived" + (f"; errata: {sev}" if sev else ""))
        lines += textwrap.wrap(text, WIDTH, subsequent_indent="    ")
    return lines


def _rows_json(rows: list[tuple[object, object]]) -> list[dict]:
    return [
        {"id": c.id, "paper": c.paper, "ref": c.ref, "kind": c.kind, "printed": c.printed,
         "value": o.value, "digits": o.digits, "verdict": o.verdict,
         "corrected": o.corrected, "evidence": o.evidence, "severity": c.severity}
        for c, o in rows
    ]


def _verify(args: argparse.Namespace) -> tuple[int, list[tuple[object, object]], float]:
    t0 = time.perf_counter()
    rows = _run_claims(args.paper, args.dps, progress=not args.json and args.progress)
    status = 1 if any(o.verdict == "failed" for _, o in rows) else 0
    if args.verdict:
        rows = [(c, o) for c, o in rows if o.verdict in args.verdict]
    return status, rows, time.perf_counter() - t0


def cmd_verify(args: argparse.Namespace) -> int:
    status, rows, elapsed = _verify(args)
    if args.json:
        print(json.dumps(_rows_json(rows), indent=1))
    else:
        for line in format_rows(rows) + summary_lines(rows):
            print(line)
        shown = f" (showing {', '.join(args.verdict)})" if args.verdict else ""
        print(f"verified at dps={args.dps} in {elapsed:.1f} s{shown}")
    return status


def cmd_figures(args: argparse.Namespace) -> int:
    return _report_files(_figures(args))


def default_out() -> Path | None:
    """The checkout's ``figures/`` when dpsym runs from its own checkout, else None.

    Outside the checkout a bare ``dpsym figures`` would scatter a ``figures/`` folder into
    whatever directory the user happens to be in, so ``--out`` is then required.
    """
    import dpsym

    root = Path(dpsym.__file__).resolve().parents[1]
    if not ((root / "pyproject.toml").is_file() and (root / "figures").is_dir()):
        return None
    cwd = Path.cwd().resolve()
    return root / "figures" if cwd == root or root in cwd.parents else None


def _out(args: argparse.Namespace) -> Path:
    from dpsym.errors import HypothesisError
    from dpsym.figures import check_out_dir

    if args.out is not None:
        out = Path(args.out)
    else:
        found = default_out()
        if found is None:
            raise HypothesisError("--out", None, "given when not run from the dpsym checkout "
                                  "(the default figures/ is the checkout's)", "dpsym figures")
        out = found
    check_out_dir(out)  # before any claim or figure is computed
    return out


def _figures(args: argparse.Namespace) -> list[object]:
    import matplotlib

    matplotlib.use("Agg")  # files only: never open a window
    from dpsym.figures import save_all

    return save_all(_out(args), args.paper, progress=args.progress, force=args.force)


def _report_files(done: list[object], quiet: bool = False) -> int:
    """Say what happened to each file; 2 when a file was refused or read-only."""
    for w in done:
        if w.status in ("wrote", "unchanged") and not quiet:
            print(f"{w.status:9s} {w.path}")
    bad = [w for w in done if w.status in ("refused", "read-only")]
    for w in bad:
        why = ("differs from the regenerated file; --force overwrites it"
               if w.status == "refused" else "read-only; left alone")
        print(f"dpsym: not written: {w.path} ({why})", file=sys.stderr)
    if bad:
        print(f"dpsym: error: {len(bad)} file(s) not written (see above)", file=sys.stderr)
        return 2
    return 0


def cmd_reproduce(args: argparse.Namespace) -> int:
    _out(args)  # a bad --out fails now, not after the whole ledger has run
    status, rows, elapsed = _verify(args)
    if not args.json:
        for line in format_rows(rows) + summary_lines(rows):
            print(line)
        print(f"verified at dps={args.dps} in {elapsed:.1f} s")
    args.progress = args.progress and not args.json
    done = _figures(args)
    if args.json:
        print(json.dumps({"claims": _rows_json(rows),
                          "figures": [str(w.path) for w in done
                                      if w.status in ("wrote", "unchanged")],
                          "files": [{"path": str(w.path), "status": w.status} for w in done]},
                         indent=1))
    files = _report_files(done, quiet=args.json)
    return max(status, files)


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``verify``, ``figures`` and ``reproduce``."""
    from dpsym.claims import VERDICTS
    from dpsym.papers import registry

    covered = ", ".join(registry.ids())

    def paper_opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--paper", type=paper_id, default=None, metavar="P",
                        help=f"one paper: {covered}")
        sp.add_argument("--dps", type=dps_arg, default=30,
                        help="working precision in digits, 5..1000 (default 30)")
        sp.add_argument("--json", action="store_true", help="rows as JSON")
        sp.add_argument("--verdict", action="append", choices=VERDICTS, default=None,
                        help="show only claims with this verdict (repeatable)")
        sp.add_argument("--no-progress", dest="progress", action="store_false")

    def file_opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--out", default=None, metavar="DIR",
                        help="output directory (default: the checkout's figures/, only when "
                             "run from the checkout); its parent must exist")
        sp.add_argument("--force", action="store_true",
                        help="overwrite files that differ from the regenerated ones "
                             "(read-only files are never touched)")

    v = sub.add_parser("verify", help="recompute every ledger claim",
                       description="Recompute every claim of the ledger and print, per paper, "
                                   "each claim's verdict with its evidence, then a summary.")
    paper_opts(v)
    v.set_defaults(func=cmd_verify)

    f = sub.add_parser("figures", help="regenerate figures (PNG + PDF) and figures/INDEX.md")
    f.add_argument("--paper", type=paper_id, default=None, metavar="P",
                   help=f"one paper: {covered}")
    file_opts(f)
    f.add_argument("--no-progress", dest="progress", action="store_false")
    f.set_defaults(func=cmd_figures)

    r = sub.add_parser("reproduce", help="verify every claim and regenerate every figure")
    paper_opts(r)
    file_opts(r)
    r.set_defaults(func=cmd_reproduce)


