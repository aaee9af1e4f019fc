"""Shared symbols and hypothesis checks of Liang, Zhang, He, Wu & Xing 2025 (arXiv:2502.17772).

The paper's symbols, explained once (Sec. 2.2 and Algorithm 1):

=========  ====================================================================================
``n``      dataset size; Poisson sampling with rate ``q = b/n`` (Algorithm 1, step 1)
``b``      batch size, also the fixed divisor of the summed clipped gradients
``eta``    step size
``C``      clipping threshold, ``clip_C(x) = x min(1, C/||x||)``
``sigma``  sigma_DP, std of the noise ``zeta_t ~ N(0, sigma^2 I)`` added to the *averaged*
           clipped gradient; the parameter noise is ``eta zeta_t`` (noise multiplier
           ``b sigma / C`` in the usual DP-SGD convention)
``L``      smoothness of every per-example loss (Assumption 3.1)
``D``      diameter of the parameter domain K (DPSGD-DC)
``T``      number of iterations; ``E`` epochs with ``T = ceil(n/b) E`` (Fig. 1 caption)
``alpha``  Renyi order, ``alpha > 1``
``beta``   the proof's noise split (Sec. 3.1): a fraction beta of the noise variance serves
           Lemma 3.2, the rest ``1 - beta`` the shift reduction of Lemma 2.6; ``0 < beta < 1``
``delta``  the delta of (eps, delta)-DP (Lemma 2.4)
=========  ====================================================================================
"""

from __future__ import annotations

import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import Number, to_mpf

__all__ = ["PAPER", "S", "check"]

PAPER = "liang2025"


class _Symbols:
    """The paper's symbols as sympy symbols (all positive)."""

    def __init__(self) -> None:
        names = "alpha T n b eta C sigma beta L D delta q k"
        for name, sym in zip(names.split(), sp.symbols(names, positive=True), strict=True):
            setattr(self, name, sym)


S = _Symbols()

_RULES = {
    "alpha": (lambda v: v > 1, "alpha > 1"),
    "beta": (lambda v: 0 < v < 1, "0 < beta < 1"),
    "eta": (lambda v: v > 0, "eta > 0"),
    "C": (lambda v: v > 0, "C > 0"),
    "sigma": (lambda v: v > 0, "sigma_DP > 0"),
    "L": (lambda v: v > 0, "L > 0 (Assumption 3.1)"),
    "D": (lambda v: v > 0, "D > 0 (diameter of K)"),
    "delta": (lambda v: 0 < v < 1, "0 < delta < 1"),
}


def _check_one(name: str, value: Number, ref: str) -> mpf | int:
    if name in ("n", "b", "T", "k"):
        return require_integer(name, value, ref, minimum=1)
    v = to_mpf(value, name, ref)
    ok, hyp = _RULES[name]
    require(ok(v), name, value, hyp, ref)
    return v


def check(ref: str, **params: Number) -> dict[str, mpf | int]:
    """Coerce and validate the paper's symbols at the current precision.

    Integers ``n, b, T, k >= 1``; ``b <= n`` (a sampling probability ``q = b/n <= 1``);
    the other symbols by their hypotheses above.  Raises ``HypothesisError``.
    """
    out = {name: _check_one(name, value, ref) for name, value in params.items()}
    if "n" in out and "b" in out:
        require(out["b"] <= out["n"], "b", out["b"], f"b <= n = {out['n']} (q = b/n <= 1)", ref)
    return out
