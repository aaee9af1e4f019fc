"""What the NoisySGD part of the paper prints (Sec. 4.3, 4.4, App. C.4, D.2, D.3.3, D.5), as data.

The formulas the paper prints for Props C.14 and C.15 are kept as text (sympy syntax, in the
paper's symbols) so that a derivation can be compared with them; accuracies are references
(a training run on another machine), never claimed.
"""

from __future__ import annotations

from dpsym.claims import Printed

__all__ = [
    "FIG4_SETTING",
    "PROP_C14_K",
    "PROP_C15_K",
    "TABLE_2",
    "TABLE_5",
    "TABLE_6",
    "THM_4_9_RANGE",
]

#: Prop. C.14's t - tau (A = L/(b sigma) so that L = A b sigma; K_1 = K(2L/(b sigma))).
PROP_C14_K = Printed("-log(b**2*sigma*(1 - c)/(2*sqrt(2)*n*L*sqrt(log(1/c)))*sqrt(K_1))"
                     "/log(1/c) - 1", where="Prop. C.14, App. C.4.3")
#: Prop. C.15's t - tau (K_2 = K(2 sqrt2 L/(b sigma))).
PROP_C15_K = Printed("D*n/(b*eta*sigma*sqrt(K_2))", where="Prop. C.15, App. C.4.3")
#: Thm 4.9's range of tau.
THM_4_9_RANGE = Printed("tau = 0, 1, ..., t - 1", where="Thm 4.9, Sec. 4.3")
#: Figure 4's setting.
FIG4_SETTING = Printed("p = 0.25, L/(b sigma) = 2.5, lambda in {0, 0.5, 1}",
                       where="Figure 4 caption, App. C.4.1")

#: Table 2: NoisyCGD (lambda = 0.002) training and test accuracy (%), mean and sd of 10 runs.
TABLE_2 = {50: (Printed("89.36 ± 0.03", "Table 2"), Printed("90.12 ± 0.04", "Table 2")),
           100: (Printed("90.24 ± 0.03", "Table 2"), Printed("90.94 ± 0.07", "Table 2")),
           200: (Printed("90.85 ± 0.02", "Table 2"), Printed("91.37 ± 0.08", "Table 2"))}

#: Table 5 (training accuracy, %): columns NoisyCGD lambda = 0.002, 0.004, NoisySGD 0.002, 0.004.
TABLE_5 = {
    50: tuple(Printed(v, "Table 5") for v in ("89.36 ± 0.03", "89.23 ± 0.02", "89.36 ± 0.04",
                                              "89.22 ± 0.04")),
    100: tuple(Printed(v, "Table 5") for v in ("90.24 ± 0.03", "90.00 ± 0.03", "90.25 ± 0.02",
                                               "89.99 ± 0.03")),
    200: tuple(Printed(v, "Table 5") for v in ("90.85 ± 0.02", "90.39 ± 0.04", "90.84 ± 0.03",
                                               "90.37 ± 0.02")),
}
#: Table 6 (test accuracy, %): same columns.
TABLE_6 = {
    50: tuple(Printed(v, "Table 6") for v in ("90.12 ± 0.04", "90.03 ± 0.07", "90.12 ± 0.08",
                                              "90.00 ± 0.06")),
    100: tuple(Printed(v, "Table 6") for v in ("90.94 ± 0.07", "90.70 ± 0.05", "90.97 ± 0.04",
                                               "90.75 ± 0.03")),
    200: tuple(Printed(v, "Table 6") for v in ("91.37 ± 0.08", "91.02 ± 0.07", "91.40 ± 0.07",
                                               "91.01 ± 0.04")),
}
