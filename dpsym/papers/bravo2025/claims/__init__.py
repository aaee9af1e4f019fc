"""The ledger of Bravo, Flores-Mella & Guzman 2025 (arXiv:2501.04134), one module per theme:
:mod:`.shifts` (Sections 2-3, App. B), :mod:`.corollaries` (Sec. 3.3, Table 1),
:mod:`.mixing` (Sec. 4, App. C), :mod:`.privacy` (Sec. 5, App. A.3).  Every check calls
named, tested functions of :mod:`dpsym.papers.bravo2025` and the concept modules, and
compares."""

from dpsym.papers.bravo2025.claims import (  # noqa: F401  (registration)
    corollaries,
    mixing,
    privacy,
    shifts,
)
