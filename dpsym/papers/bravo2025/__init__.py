"""Bravo, Flores-Mella & Guzman 2025, "Privacy amplification by iteration under a modulus of
continuity" (PABI with optimal shifts; projected Langevin mixing; noisy SGD privacy).

Each numbered statement is a function of the paper's own symbols, grouped by section:

* :mod:`.shift_problem`  the shift-allocation problem (P): Lemmas 3.3, 3.5, Thm 3.4, eq. (7) as
  printed, Prop. B.1, Table 1, Figure 2 (closed forms in :mod:`dpsym.shifts.pabi`, moduli in
  :mod:`dpsym.shifts.modulus`);
* :mod:`.corollaries`    Corollaries 3.7-3.9 and the prior bounds they improve on;
* :mod:`.mixing`         Sec. 4 and App. C: the KL bound (9), Theta of (10), Lemma 4.1,
  Thm 4.2, Lemma C.1, a projected-Langevin simulation;
* :mod:`.privacy`        Sec. 5 and App. A: Lemmas A.17, A.18, Thms 5.2, 5.4, Remark 5.3,
  eq. (22), Figure 1.

The source text is OCR with garbled formulas; the digest's decoding key is followed, and
statements the OCR cannot settle are ledger claims with verdict ``unresolved``.
"""

from dpsym.papers.bravo2025.corollaries import *  # noqa: F403
from dpsym.papers.bravo2025.mixing import *  # noqa: F403
from dpsym.papers.bravo2025.privacy import *  # noqa: F403
from dpsym.papers.bravo2025.shift_problem import *  # noqa: F403
