"""Bok, Su & Altschuler 2024, "Shifted interpolation for differential privacy" (arXiv:2403.00278).

Each numbered statement is a function of the paper's own symbols, grouped by setting:

* :mod:`.appendix_a`            GDP <-> (eps, delta) and RDP (Lemmas A.3, A.4, App. A.1),
  Figure 2's curve;
* :mod:`.interpolated_process`  the shifted interpolated process (Sec. 3, Figure 3);
* :mod:`.noisygd`               full-batch NoisyGD, strongly convex (Lemma 2.8, Thms C.5,
  4.1, 4.2, Lemma C.6, Table 7, Figures 1 and 6);
* :mod:`.noisygd_constrained`   full-batch NoisyGD, constrained convex (Thm C.7, Lemma C.8,
  Thm 4.3, Table 8, Figure 7, Thm C.16);
* :mod:`.noisycgd`              cyclic NoisyCGD, strongly convex (Thms 4.4, 4.5, Lemma C.10,
  Table 9, Figure 8, Thm C.17);
* :mod:`.noisycgd_constrained`  cyclic NoisyCGD, constrained convex (Thm 4.6, Lemma C.11,
  Tables 10-12, Figure 9);
* :mod:`.mnist`, :mod:`.prior`  the MNIST accounting of Sec. 4.4 (Tables 1, 3, 4) and the
  prior RDP bounds of Ye & Shokri 2022 it compares against;
* :mod:`.appendix_d`            privacy-loss random variables (Lemma D.2);
* :mod:`.langevin`              Langevin / exponential mechanism (Sec. 5, App. D.4).

What the paper prints is in :mod:`.printed`, the ledger rows in :mod:`.claims`, the figures
in :mod:`.figures`.

Symbols follow the paper: L (gradient sensitivity), n (dataset size), b (batch size),
l (number of batches), E (epochs), sigma (noise multiplier, a standard deviation), eta
(step size), m, M (strong convexity, smoothness), t (steps), c (contraction factor),
s (per-step sensitivity of the update map), D (diameter), mu (GDP parameter).
"""

from dpsym.papers.bok2024._rational import q_ratio  # noqa: F401
from dpsym.papers.bok2024.appendix_a import *  # noqa: F403
from dpsym.papers.bok2024.appendix_d import *  # noqa: F403
from dpsym.papers.bok2024.figures import figure_2  # noqa: F401  (kept importable here)
from dpsym.papers.bok2024.interpolated_process import *  # noqa: F403
from dpsym.papers.bok2024.langevin import *  # noqa: F403
from dpsym.papers.bok2024.mnist import *  # noqa: F403
from dpsym.papers.bok2024.noisycgd import *  # noqa: F403
from dpsym.papers.bok2024.noisycgd_constrained import *  # noqa: F403
from dpsym.papers.bok2024.noisygd import *  # noqa: F403
from dpsym.papers.bok2024.noisygd_constrained import *  # noqa: F403
from dpsym.papers.bok2024.prior import *  # noqa: F403
