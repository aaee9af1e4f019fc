"""The ledger rows of Tran & Cutkosky 2022 (arXiv:2210.06328), one module per chapter group.

Every check calls named, tested functions of :mod:`dpsym.aggregation` and
:mod:`dpsym.papers.tran2022` and compares; the evidence strings carry the numbers.  Chapters:
01_tree_aggregation (Sec. 2, App. A), 02_dp_nsgd (Sec. 3, App. D), 03_sensitivity_reduced
(Sec. 4, App. B, E), 04_tree_composition (App. C), 05_technical (App. F), 06_rates,
07_numerical_illustration.
"""

# Registration is an import side effect; the order is the chapters' order.
# isort: off
from dpsym.papers.tran2022.claims import tree  # noqa: F401
from dpsym.papers.tran2022.claims import dp_nsgd  # noqa: F401
from dpsym.papers.tran2022.claims import sensitivity_reduced  # noqa: F401
from dpsym.papers.tran2022.claims import appendix  # noqa: F401
from dpsym.papers.tran2022.claims import rates  # noqa: F401
# isort: on
