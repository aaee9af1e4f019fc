"""Formatting helpers shared by the bravo2025 claim modules (no mathematics here)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from dpsym.claims import Ledger, Outcome
from dpsym.fdp.symbolic import Derivation

ledger = Ledger("bravo2025")


def holds(ok: bool, value: str, evidence: str) -> Outcome:
    """``reproduced`` if ``ok`` else ``failed``."""
    return Outcome("reproduced" if ok else "failed", value, None, evidence)


def derivations(derive: Callable[[], Iterable[Derivation]], label: str) -> Outcome:
    """All sympy derivations must hold (residual 0)."""
    ds = list(derive())
    bad = [d.notes for d in ds if not d.holds]
    return Outcome("failed" if bad else "reproduced",
                   f"{len(ds)} identities, {len(bad)} failed", None,
                   f"{label} (sympy): " + ("all residuals simplify to 0; " if not bad
                                          else "failed: ") + "; ".join(bad or
                                                                       [d.notes for d in ds]))
