"""Liang, Zhang, He, Wu & Xing 2025, "An improved privacy and utility analysis of
differentially private SGD with bounded domain and smooth losses" (arXiv:2502.17772).

Each numbered statement is a function of the paper's own symbols (:mod:`._common`):

* :mod:`.privacy`       Sec. 3.1 and App. B: Lemmas 2.4, 2.6, 3.2, Thms 3.3, 3.4 (the "nb" and
  "n^2" variants, eqs. (10)-(15)), eqs. (44), (47), (48), Algorithm 1;
* :mod:`.closed_forms`  derived (sympy): the optimal noise split beta*, rho, the crossover
  T*, the RDP -> DP optimum of Lemma 2.4, the GDP-style parameter;
* :mod:`.refined`       the k-step shift schedule (an improvement on App. B.3) and its
  eta L -> 0 limit, linear in D (against Remark 3.5);
* :mod:`.adjacency`     the one-step counterexample to (10)/(12)/(14) in the other order of
  add/remove adjacency, and Lemma A.12 in both orders;
* :mod:`.utility`       Sec. 3.2 and App. C: Lemma 3.7, Thm 3.9, Cors 3.11, 3.12, Remark 3.13,
  the constants of C.1 and its gaps;
* :mod:`.experiments`   Sec. 4: eq. (24), the paper's noise level, and the CPU-scale audit.

Concept modules: :mod:`dpsym.shifts.smooth_reduction`, :mod:`dpsym.rdp.gaussian_mixture`,
:mod:`dpsym.rdp.conversions`, :mod:`dpsym.experiments.membership_audit`.
"""

from dpsym.papers.liang2025.privacy import *  # noqa: F403
