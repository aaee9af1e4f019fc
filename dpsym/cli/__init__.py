"""The ``dpsym`` command: verify, figures, reproduce, account.

Exit status: 0 on success, 1 when a ledger claim fails, 2 on bad input (one line on
stderr naming the parameter, its value and the violated hypothesis; no traceback).

The subcommands live in :mod:`dpsym.cli.ledger` (verify, figures, reproduce) and
:mod:`dpsym.cli.account` (the accountant); each module adds its own subparsers.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    from dpsym.cli import account, ledger

    p = argparse.ArgumentParser(prog="dpsym", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    ledger.add_parsers(sub)
    account.add_parsers(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "dps", 30) < 5:
        print(f"dpsym: error: --dps={args.dps} violates dps >= 5", file=sys.stderr)
        return 2
    prepare = getattr(args, "prepare", None)
    try:
        if prepare is not None:
            prepare(args)
        return args.func(args)
    except ValueError as exc:
        print(f"dpsym: error: {exc}", file=sys.stderr)
        return 2
