"""The authors' code against the text: the PRV of Prop. D.4 in extended precision.

Bok et al. publish their scripts (GitHub jinhobok/shifted_interpolation_dp).  The NoisySGD
column of Table 4 (App. D.2) composes the privacy-loss random variable of C_p(G(mu)), whose
CDF is Prop. D.4's

    F_Y(t) = p Phi(eps+/mu - mu/2) + (1 - p) Phi(eps+/mu + mu/2),  t > 0,

through prv-accountant.  The script stores p and mu as ``np.longdouble`` and evaluates Phi
with ``scipy.stats.norm.cdf``.  SciPy's normal CDF (the ufunc ``scipy.special.ndtr``) has
loops for float32 and float64 (and complex) only, no long-double loop, and NumPy will not
cast a long double down to float64 implicitly ("safe" casting).  So wherever np.longdouble is
wider than float64 (x86-64 Linux: the 80-bit x87 format, 64-bit mantissa) the call raises
``TypeError``; where np.longdouble *is* float64 (macOS on ARM, Windows) it runs, in double
precision, so the long double buys no precision on any platform.  :func:`prv_longdouble_check`
records this on the running platform; Table 4 is reproduced in float64 by
:func:`dpsym.fdp.prv.compose_subsampled_gaussian` (see the paper's Table 4 claims).

The other script/text mismatch of this paper, the E* expression of Tables 10-12 (``mu**2 *
mu**2`` where ``mu**2 +`` is meant), is already in the ledger: the Tables 10-12 ``E*`` claims
(severity code-text-mismatch) compare the printed E* with the text's definition and with the
script's expression (:func:`dpsym.papers.bok2024.noisycgd_constrained.e_star_as_printed`).
``register_claims`` adds only the PRV row, so that one computation is counted once.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass

import numpy as np
import scipy.special
import scipy.stats

from dpsym.claims import Ledger, Outcome
from dpsym.fdp.prv import prv_cdf

__all__ = ["LongdoubleCheck", "prv_longdouble_check", "register_claims"]


@dataclass(frozen=True)
class LongdoubleCheck:
    """What the script's extended-precision PRV meets on this platform.

    ``longdouble_bits`` / ``double_bits``: mantissa bits of np.longdouble and float64 here;
    ``ndtr_loops``: the type signatures SciPy's normal CDF provides;
    ``longdouble_loop``: whether one takes a long double (``g``);
    ``error``: what ``scipy.stats.norm.cdf`` raises on a long double here (None if it runs);
    ``float64_cdf``: Prop. D.4's F_Y at the same point evaluated in float64.
    """

    machine: str
    system: str
    longdouble_bits: int
    double_bits: int
    ndtr_loops: tuple[str, ...]
    longdouble_loop: bool
    error: str | None
    float64_cdf: float


def prv_longdouble_check(t: float = 0.5, p: float = 0.01, mu: float = 1.0) -> LongdoubleCheck:
    """Evaluate Phi at an np.longdouble argument the way the script does, and F_Y(t) of
    Prop. D.4 in float64 (:func:`dpsym.fdp.prv.prv_cdf`) for comparison.

    >>> c = prv_longdouble_check()
    >>> c.longdouble_loop, 0 < c.float64_cdf < 1
    (False, True)
    """
    x = np.longdouble(t) / np.longdouble(mu)
    try:
        scipy.stats.norm.cdf(x)
        error = None
    except TypeError as exc:
        error = f"TypeError: {exc}"
    loops = tuple(scipy.special.ndtr.types)
    return LongdoubleCheck(
        machine=platform.machine(), system=platform.system(),
        longdouble_bits=int(np.finfo(np.longdouble).nmant),
        double_bits=int(np.finfo(np.float64).nmant),
        ndtr_loops=loops, longdouble_loop=any(s.startswith("g") for s in loops),
        error=error, float64_cdf=float(prv_cdf(np.array([t]), p, mu)[0]))


def _check(dps: int) -> Outcome:
    c = prv_longdouble_check()
    here = (f"here ({c.system} {c.machine}, long double with {c.longdouble_bits} mantissa "
            f"bits against float64's {c.double_bits}) scipy.stats.norm.cdf on a long double "
            + (f"raises {c.error}" if c.error else "runs, in double precision"))
    evidence = (f"scipy.special.ndtr provides the loops {', '.join(c.ndtr_loops)}: none for a "
                f"long double (g), and NumPy does not cast one down implicitly. So the "
                f"script's np.longdouble p and mu fail wherever np.longdouble is wider than "
                f"float64 (x86-64 Linux) and add no precision where it is not; {here}. In "
                f"float64 Prop. D.4's F_Y(0.5) at p = 0.01, mu = 1 is {c.float64_cdf:.15g}")
    if c.longdouble_loop:
        return Outcome("reproduced", "long-double loop present", None,
                       "SciPy's ndtr accepts a long double: " + evidence)
    return Outcome("erratum", "no long-double loop in scipy's ndtr", None, evidence,
                   corrected="evaluate the PRV in float64 (dpsym.fdp.prv), which reproduces "
                             "Table 4's NoisySGD column within certified intervals")


def register_claims(ledger: Ledger, chapter: str) -> None:
    """Add the authors'-code claims to ``ledger`` (Bok et al. 2024's), shown in the chapter
    ``chapter`` (the paper's errata-and-summary chapter stem).  The E* mismatch of Tables
    10-12 is already a ledger row and is not repeated here."""
    ledger.add(
        "table4/authors-code-longdouble", kind="erratum", severity="code-text-mismatch",
        ref="Table 4 (App. D.2); Prop. D.4; authors' prv_SymmPoissonSubsampledGaussianMechanism.py",
        statement="The authors' script evaluates the PRV of C_p(G(mu)) (Prop. D.4) in "
                  "extended precision (np.longdouble) to compose Table 4's NoisySGD column.",
        check=_check,
        code=("dpsym.papers.bok2024.authors_code.prv_longdouble_check",
              "dpsym.fdp.prv.prv_cdf"),
        chapter=chapter)
