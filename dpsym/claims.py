"""The claims ledger: every checkable statement of a covered paper, recomputed.

A :class:`Claim` is one statement (an identity, an optimum, a limit, a printed table
entry, a figure's key value, a Monte Carlo check or an erratum) with a ``check`` that
recomputes it at a given precision and returns an :class:`Outcome`:

* ``reproduced``  the recomputation agrees with the paper (to the printed precision);
* ``erratum``     the paper is wrong; ``corrected`` and ``evidence`` say what is right and why;
* ``unresolved``  the paper's text cannot settle it; ``evidence`` says what would;
* ``failed``      the recomputation disagrees and no erratum explains it.

A claim of kind ``erratum`` fails if the paper turns out right, so an erratum can never
be asserted without evidence.  "Digits" is how many significant digits of the value
survive re-evaluation at ``dps + 20`` (:func:`stable_value`), so correctness to k digits
is shown, not assumed.

Claims are registered by the modules in :mod:`dpsym.ledger` (one per paper).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Literal

import mpmath
from mpmath import mpf

from dpsym.numerics import agreeing_digits, nstr

__all__ = [
    "KINDS",
    "PAPERS",
    "VERDICTS",
    "Claim",
    "Outcome",
    "all_claims",
    "compare_printed",
    "register",
    "stable_value",
]

Kind = Literal["table", "identity", "optimum", "limit", "montecarlo", "erratum", "figure"]
Verdict = Literal["reproduced", "erratum", "unresolved", "failed"]
KINDS = ("table", "identity", "optimum", "limit", "montecarlo", "erratum", "figure")
VERDICTS = ("reproduced", "erratum", "unresolved", "failed")
PAPERS = {
    "core": "Foundational results every paper uses (DRS22, MTZ19, conversions)",
    "bok2024": "Bok, Su & Altschuler 2024, shifted interpolation for noisy GD",
    "birrell2024": "Birrell, Ebrahimi, Behnia & Pacheco 2024, fixed-size minibatch RDP",
    "bravo2025": "Bravo, Flores-Mella & Guzman 2025, PABI under a modulus of continuity",
    "liang2025": "Liang et al. 2025, bounded-domain DP-SGD",
    "tran2022": "Tran & Cutkosky 2022, momentum aggregation",
}


@dataclass(frozen=True)
class Outcome:
    """Result of checking a claim.

    ``value``: the recomputed value as a decimal string; ``digits``: significant digits
    that agree between ``dps`` and ``dps + 20`` (None for a symbolic identity, which is
    exact); ``corrected``: for an erratum, what the paper should say; ``evidence``: how
    the verdict was reached.
    """

    verdict: Verdict
    value: str
    digits: int | None = None
    evidence: str = ""
    corrected: str | None = None


@dataclass(frozen=True)
class Claim:
    """One checkable statement from a paper (see the module docstring)."""

    id: str
    paper: str
    ref: str
    kind: Kind
    statement: str
    check: Callable[[int], Outcome] = field(repr=False)
    printed: str | None = None

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise ValueError(f"paper={self.paper!r} violates paper in {sorted(PAPERS)}")
        if self.kind not in KINDS:
            raise ValueError(f"kind={self.kind!r} violates kind in {KINDS}")

    def run(self, dps: int = 30) -> Outcome:
        """Check the claim at ``dps`` digits; an exception is a ``failed`` outcome."""
        try:
            out = self.check(dps)
        except Exception as exc:
            return Outcome("failed", "", None, f"check raised {type(exc).__name__}: {exc}")
        if self.kind == "erratum" and out.verdict == "reproduced":
            return Outcome("failed", out.value, out.digits,
                           "declared an erratum, but the paper's value was reproduced: "
                           + out.evidence)
        return out


_REGISTRY: dict[str, Claim] = {}


def register(claim: Claim) -> Claim:
    """Add a claim to the ledger (ids are unique)."""
    if claim.id in _REGISTRY:
        raise ValueError(f"claim id {claim.id!r} registered twice")
    _REGISTRY[claim.id] = claim
    return claim


def _load_ledger() -> None:
    import dpsym.ledger as ledger

    for mod in pkgutil.iter_modules(ledger.__path__):
        importlib.import_module(f"dpsym.ledger.{mod.name}")


def all_claims(paper: str | None = None) -> list[Claim]:
    """Every registered claim (optionally of one paper), in registration order."""
    _load_ledger()
    if paper is not None and paper not in PAPERS:
        raise ValueError(f"paper={paper!r} violates paper in {sorted(PAPERS)} (dpsym ledger)")
    return [c for c in _REGISTRY.values() if paper is None or c.paper == paper]


def stable_value(compute: Callable[[int], mpf], dps: int, show: int = 20) -> tuple[mpf, str, int]:
    """``compute`` at ``dps`` and ``dps + 20``: (value, shown string, agreeing digits)."""
    v = compute(dps)
    w = compute(dps + 20)
    digits = min(agreeing_digits(v, w), dps)
    return v, nstr(v, min(show, dps)), digits


def _decimals(printed: str) -> int:
    d = Decimal(printed.strip())
    exp = d.as_tuple().exponent
    return -exp if isinstance(exp, int) and exp < 0 else 0


def rounds_to(value: mpf, printed: str) -> bool:
    """Whether ``value`` rounded to the decimals of ``printed`` equals it (half-even or up)."""
    places = _decimals(printed)
    quant = Decimal(1).scaleb(-places)
    with mpmath.workdps(places + 30):
        dv = Decimal(mpmath.nstr(value, places + 25, min_fixed=-10**6, max_fixed=10**6))
    target = Decimal(printed.strip())
    if dv.quantize(quant, rounding=ROUND_HALF_EVEN) == target:
        return True
    # Papers round half up as often as half even; accept either at an exact tie only.
    return abs(dv - target) <= quant / 2


def compare_printed(
    compute: Callable[[int], mpf],
    printed: str,
    dps: int,
    erratum: bool = False,
    evidence: str = "",
) -> Outcome:
    """Outcome for a printed number: reproduced iff the value rounds to ``printed``.

    With ``erratum=True`` a disagreement is the expected verdict ``erratum`` and the
    recomputed value, rounded to the printed decimals, is the correction.
    """
    v, shown, digits = stable_value(compute, dps)
    ok = rounds_to(v, printed)
    places = _decimals(printed)
    corrected = mpmath.nstr(v, max(1, places + 1 + int(mpmath.floor(mpmath.log10(abs(v))))
                                   if v != 0 else 1))
    if ok:
        return Outcome("reproduced", shown, digits, evidence or f"rounds to {printed}")
    if erratum:
        return Outcome("erratum", shown, digits, evidence, corrected)
    return Outcome("failed", shown, digits, f"recomputed {shown} does not round to {printed}. "
                   + evidence)


def identity_outcome(residual: Callable[[int], mpf], scale: Callable[[int], mpf] | None,
                     dps: int, evidence: str) -> Outcome:
    """Outcome for a numeric identity lhs = rhs given as ``residual(dps) = lhs - rhs``.

    Reproduced when |residual| <= 10^-(dps-5) * max(1, |scale|).
    """
    r = residual(dps)
    s = abs(scale(dps)) if scale is not None else mpf(1)
    tol = mpf(10) ** (-(dps - 5)) * max(mpf(1), s)
    ok = abs(r) <= tol
    return Outcome("reproduced" if ok else "failed", nstr(r, 5), None,
                   f"{evidence}; |residual| = {nstr(abs(r), 3)} vs tolerance {nstr(tol, 2)}")


def symbolic_outcome(derive: Callable[[], object]) -> Outcome:
    """Outcome of a sympy derivation (:class:`dpsym.fdp.symbolic.Derivation`): exact, no digits."""
    d = derive()
    return Outcome("reproduced" if d.holds else "failed", f"residual = {d.residual}", None,
                   d.notes)


def summarize(outcomes: Iterable[tuple[Claim, Outcome]]) -> dict[str, int]:
    """Counts by verdict."""
    counts = dict.fromkeys(VERDICTS, 0)
    for _, o in outcomes:
        counts[o.verdict] += 1
    return counts
