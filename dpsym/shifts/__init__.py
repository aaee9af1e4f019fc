"""Shift optimisers: shifted interpolation (Bok et al. 2024), closed forms and a numeric solver."""

from dpsym.shifts.interpolation import (
    ShiftSolution,
    kkt_certificate,
    lemma_c6_shifts,
    lemma_c6_symbolic,
    lemma_c8_symbolic,
    solve_shift_problem,
)

__all__ = [
    "ShiftSolution",
    "kkt_certificate",
    "lemma_c6_shifts",
    "lemma_c6_symbolic",
    "lemma_c8_symbolic",
    "solve_shift_problem",
]
