"""The dpsym command: verify, figures, reproduce, account.

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


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``dpsym <command>: error: <message>``, exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


DESCRIPTION = ("Symbolic-numeric verification of the privacy theory of noisy gradient methods: "
               "recompute every claim of the covered papers, regenerate their figures, and "
               "account for the privacy of a training run.")


def build_parser() -> argparse.ArgumentParser:
    from dpsym import __version__
    from dpsym.cli import account, ledger

    p = _Parser(prog="dpsym", description=DESCRIPTION)
    p.add_argument("--version", action="version", version=f"dpsym {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
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
