"""Cyclic-batch NoisyCGD on constrained convex losses (Sec. 4.2, App. C.4): Thm 4.6, Tables
10-12.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.bok2024._rational import (
    _ceil,
    _exact,
    _require_eta_le_2_over_M,
    q_ratio,
)

__all__ = [
    "TABLES_10_12",
    "e_star_as_printed",
    "tables_10_12_cell",
    "thm_4_6",
    "thm_4_6_crossing",
]


def thm_4_6(L: Number, b: Number, sigma: Number, eta: Number, D: Number, l: int, E: int,
            M: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.6: NoisyCGD (l batches of size b, E epochs) on convex, M-smooth losses over a set of
    diameter D, with eta in (0, 2/M] and E >= D b/(eta L), is mu-GDP with
    mu = sqrt((L/b)^2 + 3 L D/(eta b l) + L^2/(b^2 l) ceil(D b/(eta L))) / sigma.
    The ceiling is taken on exact rationals.  Rounded up."""
    ref = "Bok et al. 2024, Thm 4.6"
    l = require_integer("l", l, ref, minimum=1)
    E = require_integer("E", E, ref, minimum=1)
    q = q_ratio(L, b, eta, D, ref)
    require(q <= E, "E", E, f"E >= D b/(eta L) = {float(q):.6g}", ref)
    _require_eta_le_2_over_M(eta, M, ref)
    ceil_q = _ceil(q)
    with precision(dps + GUARD_DPS):
        Lv, bv, sg = to_mpf(L, "L", ref), to_mpf(b, "b", ref), to_mpf(sigma, "sigma", ref)
        ev, Dv = to_mpf(eta, "eta", ref), to_mpf(D, "D", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        Lb = Lv / bv
        mu = mpmath.sqrt(Lb**2 + 3 * Lv * Dv / (ev * bv * l) + Lb**2 / l * ceil_q) / sg
    return round_up(mu, dps)


def thm_4_6_crossing(L_over_b: Number, eta: Number, D: Number, l: int) -> int:
    """First E with composition (Thm 4.4) >= Thm 4.6's mu*: (L/b)^2 E >= (L/b)^2 + 3 L D/(eta b l)
    + (L/b)^2 ceil(q)/l, i.e. E* = ceil(1 + 3 q/l + ceil(q)/l), q = D b/(eta L) (exact)."""
    q = q_ratio(L_over_b, 1, eta, D, "Bok et al. 2024, Tables 10-12")
    ceil_q = _ceil(q)
    x = 1 + 3 * q / l + Fraction(ceil_q, l)
    return _ceil(x)


def e_star_as_printed(L_over_b: Number, eta: Number, l: int) -> int:
    """The expression that reproduces every printed E* of Tables 10-12 (D = 1):
    ceil((3 mu/(eta l) + mu^2 mu^2/l ceil(1/(mu eta))) / mu^2), mu = L/b — the digest's
    transcription of the authors' script, with '*' where '+' was meant.  Evidence only."""
    mu = _exact(L_over_b, "L/b", "Tables 10-12")
    e = _exact(eta, "eta", "Tables 10-12")
    inner = 1 / (mu * e)
    x = (3 * mu / (e * l) + mu**2 * mu**2 / l * _ceil(inner)) / mu**2
    return _ceil(x)


#: Tables 10-12 (App. D.3.2): (E*, mu*) for NoisyCGD constrained, D = 1, sigma = 3.
TABLES_10_12 = {
    "D": "1", "sigma": "3", "L_over_b": ("0.25", "0.5", "1"), "eta": ("0.04", "0.02", "0.01"),
    "printed": {
        10: {"0.25": (("31", "0.534"), ("62", "0.750"), ("123", "1.057")),
             "0.5": (("17", "0.764"), ("33", "1.067"), ("65", "1.500")),
             "1": (("10", "1.106"), ("20", "1.528"), ("40", "2.134"))},
        20: {"0.25": (("16", "0.382"), ("31", "0.534"), ("62", "0.750")),
             "0.5": (("9", "0.553"), ("17", "0.764"), ("33", "1.067")),
             "1": (("5", "0.816"), ("10", "1.106"), ("20", "1.528"))},
        40: {"0.25": (("8", "0.276"), ("16", "0.382"), ("31", "0.534")),
             "0.5": (("5", "0.408"), ("9", "0.553"), ("17", "0.764")),
             "1": (("3", "0.624"), ("5", "0.816"), ("10", "1.106"))},
    },
}


def tables_10_12_cell(l: int, L_over_b: str, eta: str, dps: int = DEFAULT_DPS) -> dict:
    """One cell: mu* (Thm 4.6 at its smallest valid E), the crossing E* by the text's definition,
    the printed-script E*, and q = D b/(eta L), the first epoch count Thm 4.6 covers."""
    f = TABLES_10_12
    q = q_ratio(L_over_b, 1, eta, f["D"], "Tables 10-12")
    e_valid = _ceil(q)
    return {
        "mu_star": thm_4_6(L_over_b, 1, f["sigma"], eta, f["D"], l, e_valid, dps=dps),
        "E_star": thm_4_6_crossing(L_over_b, eta, f["D"], l),
        "E_star_script": e_star_as_printed(L_over_b, eta, l),
        "E_min_valid": e_valid,
    }
