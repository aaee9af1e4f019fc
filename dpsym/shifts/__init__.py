"""Shift optimisers: shifted interpolation (Bok et al. 2024), closed forms and a numeric solver."""

from dpsym.shifts.cyclic_constrained import (
    WindowSolution,
    lemma_c11_corrected,
    lemma_c11_printed,
    window_optimum,
)
from dpsym.shifts.interpolation import (
    ShiftSolution,
    cyclic_shift_pattern,
    cyclic_shifts,
    kkt_certificate,
    lemma_c6_shifts,
    lemma_c6_symbolic,
    lemma_c8_symbolic,
    lemma_c10_symbolic,
    solve_shift_problem,
)

__all__ = [
    "ShiftSolution",
    "WindowSolution",
    "cyclic_shift_pattern",
    "cyclic_shifts",
    "kkt_certificate",
    "lemma_c6_shifts",
    "lemma_c6_symbolic",
    "lemma_c8_symbolic",
    "lemma_c10_symbolic",
    "lemma_c11_corrected",
    "lemma_c11_printed",
    "solve_shift_problem",
    "window_optimum",
]
