"""Birrell, Ebrahimi, Behnia & Pacheco 2024, "Differentially private stochastic gradient descent
with fixed-size minibatches: tighter RDP guarantees with or without replacement".

Each numbered statement is a function of the paper's own symbols, grouped by sampling scheme:

* :mod:`.add_remove`   fixed-size sampling without replacement (FSwoR), add/remove adjacency:
  Thms 3.1-3.3, eqs. (8), (40)-(47), Figure 6, App. G (Poisson vs fixed-size);
* :mod:`.replace_one`  FSwoR under replace-one adjacency (Thms 3.4, 3.5, eqs. (65)-(96)), the
  Poisson replace-one bound (Thm C.9), the comparison with Wang, Balle & Kasiviswanathan 2019
  ((127)-(133)), the (eps, delta) conversion, Figures 2, 3, 4 (top), 7;
* :mod:`.fswr`         fixed-size sampling with replacement (FSwR): Thms 3.6, 3.7, eqs. (112)-(126),
  Figures 1, 8, 9;
* :mod:`.sampling`     Lemmas A.1, D.1 by exact enumeration, the sensitivities (32), (37) and the
  variance identities of Sec. 4.1 / App. F ((21), (22), (143)-(147));
* :mod:`.training`     CPU-scale proxies of the GPU experiments (Figures 4 bottom, 5, 10).

The concept modules are :mod:`dpsym.rdp.gaussian_mixture` (H, M, B-tilde, F),
:mod:`dpsym.rdp.taylor` (symbolic coefficients, remainder bounds, the accountants),
:mod:`dpsym.rdp.wang2019` and :mod:`dpsym.rdp.fixed_size_replacement`.
"""

from dpsym.papers.birrell2024.add_remove import *  # noqa: F403
from dpsym.papers.birrell2024.fswr import *  # noqa: F403
from dpsym.papers.birrell2024.replace_one import *  # noqa: F403
from dpsym.papers.birrell2024.sampling import *  # noqa: F403
from dpsym.papers.birrell2024.training import *  # noqa: F403
