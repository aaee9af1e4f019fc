"""The authors' code against the text: Thm 3.6's bound as the FSRDP script evaluates it.

Birrell et al. publish their accountant (GitHub star-ailab/FSRDP, ``fs_rdp_bounds.py``,
function ``FSwR_RDP_ar``).  Thm 3.6 / App. D.1, eq. (112), bounds one FSwR step by

    (1/(alpha-1)) log[ 1 + sum_{n<=K} a~_n (H_{alpha, sigma/n}(q~) - 1)
                         + sum_{n>K} a_n (exp(2 alpha (alpha-1) n^2 / sigma^2) - 1) ],

a~_n = a_n / q~, and each H_{alpha, sigma/n}(q~) - 1 may be bounded by the Taylor bound
or by convexity, q~ (exp(2 alpha (alpha-1) n^2/sigma^2) - 1): both are valid, so is their
minimum (:func:`dpsym.rdp.fixed_size_replacement.upper_bound_rdp` with ``h="min"``).

The script takes, for n <= K, the minimum of the Taylor bound and exp(2 alpha (alpha-1)
n^2/sigma^2) - 1 *without* the factor q~ on the convexity branch.  So whenever the convexity
branch is the smaller one, that term is a~_n (e^x - 1) = a_n (e^x - 1)/q~ instead of
a_n (e^x - 1): 1/q~ times too large.  The result is still an upper bound (it only adds),
but a loose one, and it is not monotone in K: taking more terms into the first sum (the
theorem's K = |B|) makes the script's value *larger*, the opposite of what the text's bound
does.  :func:`fswr_rdp_as_coded` evaluates the script's expression (written from this
description, not from the script); :func:`authors_code_fallback` compares it with the
text's bound.  ``register_claims`` adds the ledger row.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
from mpmath import mpf

from dpsym.claims import Ledger, Outcome, stable_value
from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, nstr, precision, round_up, to_mpf
from dpsym.papers.registry import cite
from dpsym.rdp.fixed_size_replacement import binomial_weights, q_tilde, upper_bound_rdp
from dpsym.rdp.taylor import h_taylor_bound

__all__ = ["FALLBACK_CASE", "FallbackComparison", "authors_code_fallback",
           "fswr_rdp_as_coded", "register_claims"]

PAPER = "birrell2024"
#: The instance of the comparison: alpha, sigma, |B|, |D|, Taylor order m.
FALLBACK_CASE = {"alpha": 3, "sigma": 4, "B": 10, "D": 1000, "m": 3}


def fswr_rdp_as_coded(alpha: Number, sigma: Number, B: int, D: int, m: int = 3,
                      K: int | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """One-step FSwR RDP bound as the authors' ``FSwR_RDP_ar`` evaluates it: eq. (112) with,
    for n <= K, min(Taylor bound on H - 1, e^x - 1) in place of min(Taylor, q~ (e^x - 1)),
    x = 2 alpha (alpha - 1) n^2 / sigma^2.  ``K`` defaults to the script's min(m - 1, |B|).
    Rounded up (it is an upper bound, a loose one).

    >>> nstr(fswr_rdp_as_coded(3, 4, 10, 1000, m=3, K=10, dps=20), 5)
    '4.6019'
    """
    ref = cite(PAPER, "Thm 3.6 (authors' FSwR_RDP_ar)")
    b = require_integer("B", B, ref, minimum=1)
    d = require_integer("D", D, ref, minimum=2)
    require(b < d, "B", B, f"B < D = {d}", ref)
    mm = require_integer("m", m, ref, minimum=3)
    k = min(mm - 1, b) if K is None else require_integer("K", K, ref, minimum=1)
    require(k <= b, "K", K, f"1 <= K <= B = {b}", ref)
    work = dps + GUARD_DPS
    with precision(work):
        a, s = to_mpf(alpha, "alpha", ref), to_mpf(sigma, "sigma", ref)
        require(a > 1, "alpha", alpha, "alpha > 1", ref)
        require(s > 0, "sigma", sigma, "sigma > 0", ref)
    weights = binomial_weights(b, d, dps=work)
    qt = q_tilde(b, d, k, dps=work)
    with precision(work):
        s_n = [s / n for n in range(1, k + 1)]  # formed here, not at the caller's precision
    taylor = [h_taylor_bound(alpha, sn, qt, mm, dps=work) for sn in s_n]
    with precision(work):
        total = mpf(1)
        for n in range(1, b + 1):
            x = 2 * a * (a - 1) * n * n / (s * s)
            if n <= k:
                total += weights[n] / qt * min(taylor[n - 1], mpmath.expm1(x))
            else:
                total += weights[n] * mpmath.expm1(x)
        out = mpmath.log(total) / (a - 1)
    return round_up(out, dps)


@dataclass(frozen=True)
class FallbackComparison:
    """The script's value and the text's bound, at K = |B| (the theorem) and K = m - 1 (the
    script's default)."""

    coded_full: mpf
    coded_default: mpf
    text_full: mpf
    text_default: mpf
    K_full: int
    K_default: int


def authors_code_fallback(alpha: Number = 3, sigma: Number = 4, B: int = 10, D: int = 1000,
                          m: int = 3, dps: int = DEFAULT_DPS) -> FallbackComparison:
    """The script's FSwR bound and the text's eq. (112) (Taylor/convexity minimum) at
    K = |B| and K = m - 1.

    >>> c = authors_code_fallback(dps=20)
    >>> nstr(c.coded_full, 5), nstr(c.coded_default, 5)
    ('4.6019', '2.9658')
    """
    kd = min(m - 1, B)
    return FallbackComparison(
        coded_full=fswr_rdp_as_coded(alpha, sigma, B, D, m, K=B, dps=dps),
        coded_default=fswr_rdp_as_coded(alpha, sigma, B, D, m, K=kd, dps=dps),
        text_full=upper_bound_rdp(alpha, sigma, B, D, K=B, m=m, h="min", dps=dps),
        text_default=upper_bound_rdp(alpha, sigma, B, D, K=kd, m=m, h="min", dps=dps),
        K_full=B, K_default=kd)


def _check(dps: int) -> Outcome:
    f = FALLBACK_CASE
    c = authors_code_fallback(**f, dps=dps)
    _, shown, digits = stable_value(
        lambda d: fswr_rdp_as_coded(f["alpha"], f["sigma"], f["B"], f["D"], f["m"],
                                    K=f["B"], dps=d), dps)
    mismatch = c.coded_full > c.text_full and c.coded_full > c.coded_default
    evidence = (
        f"at alpha = {f['alpha']}, sigma = {f['sigma']}, |B| = {f['B']}, |D| = {f['D']}, "
        f"m = {f['m']}: the script's FSwR_RDP_ar expression gives {nstr(c.coded_full, 6)} at "
        f"K = |B| = {c.K_full} (the theorem) but {nstr(c.coded_default, 6)} at its default "
        f"K = m - 1 = {c.K_default}, so it grows with K; eq. (112) with the minimum of the "
        f"Taylor and convexity bounds gives {nstr(c.text_full, 6)} and "
        f"{nstr(c.text_default, 6)}. The script omits the factor q~ on the convexity branch "
        "of the n <= K terms (a~_n (e^x - 1) instead of a~_n q~ (e^x - 1) = a_n (e^x - 1)), "
        "a valid but looser bound that is not monotone in K")
    if not mismatch:
        return Outcome("reproduced", shown, digits, "the script's value matches the text: "
                       + evidence)
    return Outcome("erratum", shown, digits, evidence,
                   corrected=f"{nstr(c.text_full, 6)} (eq. (112) with the q~ factor, "
                             f"K = |B|)")


def register_claims(ledger: Ledger, chapter: str) -> None:
    """Add the authors'-code claims to ``ledger`` (Birrell et al. 2024's), shown in the
    chapter ``chapter`` (the paper's errata-and-summary chapter stem)."""
    ledger.add(
        "thm3.6/authors-code-fallback", kind="erratum", severity="code-text-mismatch",
        ref="Thm 3.6; App. D.1, eq. (112); authors' fs_rdp_bounds.py, FSwR_RDP_ar",
        statement="The authors' accountant evaluates the FSwR bound of Thm 3.6 (eq. (112)), "
                  "bounding each H_{alpha, sigma/n}(q~) - 1 by the smaller of its Taylor and "
                  "convexity bounds.",
        check=_check,
        code=("dpsym.papers.birrell2024.authors_code.fswr_rdp_as_coded",
              "dpsym.papers.birrell2024.authors_code.authors_code_fallback",
              "dpsym.rdp.fixed_size_replacement.upper_bound_rdp"),
        chapter=chapter)
