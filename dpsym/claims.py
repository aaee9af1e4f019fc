"""The claims ledger: every checkable statement of a covered paper, recomputed.

A :class:`Claim` is one statement of a paper with a ``check`` that recomputes it at a
given precision and returns an :class:`Outcome` whose verdict is one of

* ``reproduced``  the recomputation agrees with the paper (to the printed precision);
* ``note``        the statement holds as printed, but deserves a remark (loose, mis-rounded
                  yet still true, ambiguous in a harmless way): *not* an erratum;
* ``erratum``     the paper is wrong; ``corrected`` and ``evidence`` say what is right and
                  why, and the claim's ``severity`` says how much it matters;
* ``unresolved``  the paper cannot settle it; ``evidence`` says what would;
* ``failed``      the recomputation disagrees and no erratum explains it.

The claim's ``kind`` says what is checked. Numbers the paper prints are ``table`` and
``text``; values dpsym derives are ``figure`` (data of a figure the paper draws but does not
print), ``identity``, ``inequality``, ``optimum``, ``limit`` and ``montecarlo``; ``erratum``
and ``note`` are statements expected to fail, or to hold loosely. A claim of kind
``erratum`` whose check reproduces the paper is ``failed``, so an erratum can never be
asserted without evidence; likewise a ``note`` must come back as a note.

Severities of an erratum (:data:`SEVERITIES`):

* ``false-statement``     a counterexample to the result as stated;
* ``proof-gap``           a step of the proof fails, the statement is not shown false (the
                          evidence says how hard dpsym looked);
* ``misprint``            a typo in a formula, index or constant, the intended reading clear;
* ``code-text-mismatch``  the authors' script disagrees with the text.

"Digits" is how many significant digits survive re-evaluation at ``dps + 20``
(:func:`stable_value`), so correctness to k digits is shown, not assumed.

Claims live in each paper's ``claims`` module (``dpsym.papers.<id>.claims``), found through
:mod:`dpsym.papers.registry`; a check only calls named, tested functions and compares.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Literal

import mpmath
from mpmath import mpf

from dpsym.errors import WorkingDps, require_dps
from dpsym.numerics import agreeing_digits, nstr
from dpsym.papers import registry

__all__ = [
    "DERIVED_KINDS",
    "KINDS",
    "PRINTED_KINDS",
    "SEVERITIES",
    "VERDICTS",
    "Claim",
    "Ledger",
    "Outcome",
    "Printed",
    "all_claims",
    "compare_printed",
    "count_by_kind",
    "identity_outcome",
    "register",
    "rounds_to",
    "stable_value",
    "summarize",
    "symbolic_outcome",
]

Kind = Literal["table", "text", "figure", "identity", "inequality", "optimum", "limit",
               "montecarlo", "erratum", "note"]
Verdict = Literal["reproduced", "note", "erratum", "unresolved", "failed"]
Severity = Literal["false-statement", "proof-gap", "misprint", "code-text-mismatch"]
PRINTED_KINDS = ("table", "text")
DERIVED_KINDS = ("figure", "identity", "inequality", "optimum", "limit", "montecarlo")
KINDS = (*PRINTED_KINDS, *DERIVED_KINDS, "erratum", "note")
VERDICTS = ("reproduced", "note", "erratum", "unresolved", "failed")
SEVERITIES = ("false-statement", "proof-gap", "misprint", "code-text-mismatch")


@dataclass(frozen=True)
class Printed:
    """A value as the paper prints it (``value``, verbatim) and where (``where``)."""

    value: str
    where: str

    def __str__(self) -> str:
        return self.value


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
    """One checkable statement from a paper (see the module docstring).

    ``code`` names the dpsym functions the check calls (where in dpsym); ``chapter`` the
    notebook (stem, in the paper's chapter folder) that shows it; ``figure`` the key of a
    registered figure that illustrates the evidence; ``headline`` marks the numbers a
    summary leads with.
    """

    id: str
    paper: str
    ref: str
    kind: Kind
    statement: str
    check: Callable[[int], Outcome] = field(repr=False)
    printed: str | None = None
    severity: Severity | None = None
    code: tuple[str, ...] = ()
    chapter: str | None = None
    figure: str | None = None
    headline: bool = False

    def __post_init__(self) -> None:
        if self.paper not in registry.ids():
            raise ValueError(f"paper={self.paper!r} violates paper in {registry.ids()}")
        if not self.id.startswith(self.paper + "/"):
            raise ValueError(f"id={self.id!r} violates id starting with '{self.paper}/'")
        if self.kind not in KINDS:
            raise ValueError(f"kind={self.kind!r} violates kind in {KINDS}")
        if (self.kind == "erratum") != (self.severity is not None):
            raise ValueError(f"severity={self.severity!r} violates 'an erratum, and only an "
                             f"erratum, has a severity' (claim {self.id})")
        if self.severity is not None and self.severity not in SEVERITIES:
            raise ValueError(f"severity={self.severity!r} violates severity in {SEVERITIES}")
        if isinstance(self.printed, Printed):
            object.__setattr__(self, "printed", self.printed.value)

    @property
    def printed_in_paper(self) -> bool:
        """Whether the claim checks a number the paper prints (``table``/``text``)."""
        return self.kind in PRINTED_KINDS

    def run(self, dps: int = 30) -> Outcome:
        """Check the claim at ``dps`` digits; an exception is a ``failed`` outcome."""
        try:
            out = self.check(dps)
        except Exception as exc:
            return Outcome("failed", "", None, f"check raised {type(exc).__name__}: {exc}")
        if self.kind == "erratum" and out.verdict in ("reproduced", "note"):
            return Outcome("failed", out.value, out.digits,
                           "declared an erratum, but the paper's statement was reproduced: "
                           + out.evidence)
        if self.kind == "note" and out.verdict == "reproduced":
            return Outcome("failed", out.value, out.digits,
                           "declared a note, but nothing remarkable was found: " + out.evidence)
        if out.verdict == "erratum" and self.kind != "erratum":
            return Outcome("failed", out.value, out.digits,
                           f"an undeclared erratum (kind {self.kind}): " + out.evidence,
                           out.corrected)
        if out.verdict == "note" and self.kind != "note":
            return Outcome("failed", out.value, out.digits,
                           f"an undeclared note (kind {self.kind}): " + out.evidence)
        return out


class Ledger:
    """Registers the claims of one paper: ``Ledger("bok2024").add("thm4.3/x", ...)``.

    The id is prefixed with the paper id; every other keyword goes to :class:`Claim`.
    """

    def __init__(self, paper: str) -> None:
        registry.paper(paper)  # fails early on an unknown paper id
        self.paper = paper

    def add(self, id: str, **kwargs: object) -> Claim:
        return register(Claim(id=f"{self.paper}/{id}", paper=self.paper, **kwargs))


_REGISTRY: dict[str, Claim] = {}


def register(claim: Claim) -> Claim:
    """Add a claim to the ledger (ids are unique)."""
    if claim.id in _REGISTRY:
        raise ValueError(f"claim id {claim.id!r} registered twice")
    _REGISTRY[claim.id] = claim
    return claim


_LOADED: set[str] = set()


def _load(paper_id: str) -> None:
    """Import the paper's claims module (registration is an import side effect)."""
    if paper_id in _LOADED:
        return
    name = f"{registry.paper(paper_id).package}.claims"
    if importlib.util.find_spec(name) is not None:
        importlib.import_module(name)
    _LOADED.add(paper_id)


def all_claims(paper: str | None = None) -> list[Claim]:
    """Every registered claim (optionally of one paper), in registry, then registration, order.

    An unknown ``paper`` raises ``ValueError`` listing the covered papers.
    """
    papers = registry.ids() if paper is None else (registry.paper(paper).id,)
    for p in papers:
        _load(p)
    order = {p: i for i, p in enumerate(registry.ids())}
    claims = [c for c in _REGISTRY.values() if c.paper in papers]
    return sorted(claims, key=lambda c: order[c.paper])


def stable_value(compute: Callable[[int], mpf], dps: int, show: int = 20) -> tuple[mpf, str, int]:
    """``compute`` at ``dps`` and ``dps + 20``: (value, shown string, agreeing digits)."""
    v = compute(dps)
    w = compute(WorkingDps(require_dps(dps) + 20))  # may pass MAX_DPS: a working precision
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


def count_by_kind(outcomes: Iterable[tuple[Claim, Outcome]]) -> dict[str, int]:
    """Reproduced claims split into numbers the paper prints and values dpsym derives,
    and errata by severity: ``{"printed": .., "derived": .., "<severity>": .., "note": ..}``."""
    counts = {"printed": 0, "derived": 0, **dict.fromkeys(SEVERITIES, 0), "note": 0}
    for c, o in outcomes:
        if o.verdict == "reproduced":
            counts["printed" if c.printed_in_paper else "derived"] += 1
        elif o.verdict == "erratum" and c.severity is not None:
            counts[c.severity] += 1
        elif o.verdict == "note":
            counts["note"] += 1
    return counts
