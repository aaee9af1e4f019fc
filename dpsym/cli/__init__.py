"""The dpsym command: verify, figures, reproduce, account.

Exit status: 0 on success, 1 when a ledger claim fails, 2 on bad input (one line on
stderr naming the parameter, its value and the violated hypothesis; no traceback).

Every error is one line and exit 2: argparse's own (a custom ``error``), a
``ValueError`` of the validation layer, an overflow or arithmetic failure, a file-system
error, running out of memory.  Anything else is an internal error: one line and a hint
to re-run with ``--debug``, which shows the traceback.  Negative numbers are values, not
options: ``--delta -1e-5`` reaches the validation and is rejected there with its reason.

The subcommands live in :mod:`dpsym.cli.ledger` (verify, figures, reproduce) and
:mod:`dpsym.cli.account` (the accountant); each module adds its own subparsers.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

__all__ = ["build_parser", "main"]

#: What argparse must read as a value, not an option: -1, -1.5, -.5, -1e-5, -inf, -nan.
_NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^-(inf|infinity|nan)$",
                              re.IGNORECASE)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``dpsym <command>: error: <message>``, exit 2."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        # argparse's own pattern misses -1e-5 and would read it as an unknown option.
        self._negative_number_matcher = _NEGATIVE_NUMBER

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
    p.add_argument("--debug", action="store_true",
                   help="show the traceback of an internal error")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    ledger.add_parsers(sub)
    account.add_parsers(sub)
    return p


def _one_line(text: str) -> str:
    return " ".join(str(text).split()) or "(no message)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    prepare = getattr(args, "prepare", None)
    try:
        if prepare is not None:
            prepare(args)
        return args.func(args)
    except ValueError as exc:
        print(f"dpsym: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except (OverflowError, ArithmeticError) as exc:
        print(f"dpsym: error: the computation overflowed or did not converge for these "
              f"inputs ({type(exc).__name__}: {_one_line(exc)})", file=sys.stderr)
        return 2
    except MemoryError:
        print("dpsym: error: out of memory (reduce --orders, --dps or the run size)",
              file=sys.stderr)
        return 2
    except OSError as exc:
        where = f": {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"dpsym: error: {exc.strerror or _one_line(exc)}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("dpsym: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if args.debug:
            raise
        print(f"dpsym: internal error: {type(exc).__name__}: {_one_line(exc)[:200]} "
              "(re-run with --debug for the traceback)", file=sys.stderr)
        return 2
