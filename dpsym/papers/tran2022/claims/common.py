"""Shared helpers of the tran2022 ledger modules."""

from __future__ import annotations

from dpsym.claims import Ledger, Outcome
from dpsym.papers.tran2022 import illustration as il
from dpsym.papers.tran2022 import rates

ledger = Ledger("tran2022")
M = "dpsym.papers.tran2022"


def passed(holds: bool, value: str, evidence: str) -> Outcome:
    return Outcome("reproduced" if holds else "failed", value, None, evidence)


def erratum(found: bool, value: str, evidence: str, corrected: str) -> Outcome:
    """``erratum`` when the evidence shows the paper wrong; else ``reproduced`` (which the
    ledger turns into ``failed`` for a declared erratum)."""
    return Outcome("erratum" if found else "reproduced", value, None, evidence,
                   corrected if found else None)


def note(found: bool, value: str, evidence: str) -> Outcome:
    return Outcome("note" if found else "reproduced", value, None, evidence)


def steps_text(steps: list[rates.Step]) -> str:
    return "; ".join(f"{s.name}: {'holds' if s.holds else 'FAILS'}" for s in steps)


def sweep() -> il.NoiseSweep:
    """The noise sweep of chapter 07 (cached in :func:`illustration.paper_sweep`)."""
    return il.paper_sweep()
