"""Shift optimisers: shifted interpolation (Bok et al. 2024) and PABI under a modulus of
continuity (Bravo et al. 2025); closed forms (sympy) and numeric solvers to check them.

The submodules are part of the API: ``dpsym.shifts.modulus`` (Table 1 moduli),
``dpsym.shifts.pabi`` (problem (P)), ``dpsym.shifts.interpolation`` and
``dpsym.shifts.cyclic_constrained`` (Bok et al. 2024), ``dpsym.shifts.smooth_reduction``
(k-step shifts of an expansive step, Liang et al. 2025)."""

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
from dpsym.shifts.modulus import Modulus, derive_class, stress_test
from dpsym.shifts.pabi import ShiftSolution as PabiShiftSolution
from dpsym.shifts.pabi import objective as pabi_objective
from dpsym.shifts.pabi import optimal_shifts, optimal_value
from dpsym.shifts.pabi import solve_numeric as solve_pabi_numeric
from dpsym.shifts.smooth_reduction import k_step_allocation, k_step_shift_cost

__all__ = [
    "Modulus",
    "PabiShiftSolution",
    "ShiftSolution",
    "WindowSolution",
    "cyclic_shift_pattern",
    "cyclic_shifts",
    "derive_class",
    "k_step_allocation",
    "k_step_shift_cost",
    "kkt_certificate",
    "lemma_c6_shifts",
    "lemma_c6_symbolic",
    "lemma_c8_symbolic",
    "lemma_c10_symbolic",
    "lemma_c11_corrected",
    "lemma_c11_printed",
    "optimal_shifts",
    "optimal_value",
    "pabi_objective",
    "solve_pabi_numeric",
    "solve_shift_problem",
    "stress_test",
    "window_optimum",
]
