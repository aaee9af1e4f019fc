"""The ledger rows of Birrell, Ebrahimi, Behnia & Pacheco 2024 (arXiv:2408.10456).

One module per part of the paper, registered in the paper's order: sampling and
decompositions (Sec. 3.1, Apps A, D.1's Lemma D.1, Sec. 4.1, App. F), FSwoR add/remove
(Sec. 3.2.1, App. B, G), FSwoR replace-one (Sec. 3.2.2, 3.4, Apps C, E), Poisson replace-one
(App. C.1), FSwR (Sec. 3.3, App. D), training (Sec. 4.3-4.4, App. H).  A check only calls
the named functions of :mod:`dpsym.papers.birrell2024` and compares; printed values and
plotted-curve references come from :mod:`dpsym.papers.birrell2024.printed`.
"""

from importlib import import_module

for _name in ("sampling", "add_remove", "replace_one", "poisson", "fswr", "training"):
    import_module(f"{__name__}.{_name}")
