"""Bravo, Flores-Mella & Guzman 2025, "Mixing Times and Privacy Analysis for the Projected
Langevin Algorithm under a Modulus of Continuity" (arXiv:2501.04134).

Each numbered statement is a function of the paper's own symbols, grouped by section:

* :mod:`.shift_problem`  Sections 2-3 and App. B: Lemmas 3.2, 3.3, 3.5, Thm 3.4, eq. (5),
  Remark 3.6, Table 1, Prop. B.1, Figure 2's data (closed forms in
  :mod:`dpsym.shifts.pabi`, moduli in :mod:`dpsym.shifts.modulus`, exact Gaussian-chain
  divergences in :mod:`dpsym.shifts.gaussian_chain`);
* :mod:`.corollaries`    Corollaries 3.7-3.9 (eqs. (6)-(8)) and the prior bounds they improve;
* :mod:`.mixing`         Sec. 4 and App. C: the KL bound (9), Theta of (10), Lemma 4.1,
  Thm 4.2, Lemma C.1, a projected-Langevin simulation;
* :mod:`.privacy`        Sec. 5 and App. A: Lemmas A.17, A.18, Thms 5.2, 5.4, Remark 5.3,
  eqs. (22)-(24), Figure 1's data;
* :mod:`.printed`        what the paper prints, as data; :mod:`.claims` the ledger rows;
  :mod:`.figures` the figures.
"""

from dpsym.papers.bravo2025.corollaries import *  # noqa: F403
from dpsym.papers.bravo2025.mixing import *  # noqa: F403
from dpsym.papers.bravo2025.privacy import *  # noqa: F403
from dpsym.papers.bravo2025.shift_problem import *  # noqa: F403
