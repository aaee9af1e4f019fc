"""Bok, Su & Altschuler 2024, "Shifted interpolation for differential privacy".

Each numbered statement is a function of the paper's own symbols, grouped by setting:

* :mod:`.appendix_a`            GDP <-> (eps, delta) and RDP (Lemmas A.3, A.4), Figure 2;
* :mod:`.noisygd`               full-batch NoisyGD, strongly convex (Lemma 2.8, Thms C.5,
  4.1, 4.2, Table 7, Figure 6);
* :mod:`.noisygd_constrained`   full-batch NoisyGD, constrained convex (Thms C.7, 4.3,
  Table 8, Figure 7);
* :mod:`.noisycgd`              cyclic NoisyCGD, strongly convex (Thms 4.4, 4.5, Table 9,
  Figure 8);
* :mod:`.noisycgd_constrained`  cyclic NoisyCGD, constrained convex (Thm 4.6, Tables 10-12);
* :mod:`.langevin`              Langevin / exponential mechanism (Sec. 5, App. D.4).

Symbols follow the paper: L (gradient sensitivity), n (dataset size), b (batch size),
l (number of batches), E (epochs), sigma (noise multiplier), eta (step size), m, M
(strong convexity, smoothness), t (steps), c (contraction factor), s (per-step
sensitivity of the update map), D (diameter), mu (GDP parameter).
"""

from dpsym.papers.bok2024._rational import q_ratio  # noqa: F401
from dpsym.papers.bok2024.appendix_a import *  # noqa: F403
from dpsym.papers.bok2024.interpolated_process import *  # noqa: F403
from dpsym.papers.bok2024.langevin import *  # noqa: F403
from dpsym.papers.bok2024.mnist import *  # noqa: F403
from dpsym.papers.bok2024.noisycgd import *  # noqa: F403
from dpsym.papers.bok2024.noisycgd_constrained import *  # noqa: F403
from dpsym.papers.bok2024.noisygd import *  # noqa: F403
from dpsym.papers.bok2024.noisygd_constrained import *  # noqa: F403
from dpsym.papers.bok2024.prior import *  # noqa: F403
