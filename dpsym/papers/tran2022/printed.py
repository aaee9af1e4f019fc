"""What Tran & Cutkosky 2022 (arXiv:2210.06328) prints, as data.

The paper has no tables and no experiments; what it prints are formulas, constants and
counts.  Each is kept verbatim (in ASCII) with where it stands, so the ledger compares the
recomputation with the paper's own words.
"""

from dpsym.claims import Printed

# --- Sec. 2, Figure 1 ---------------------------------------------------------------------
FIG_1_NODES = Printed("15", "Figure 1 (the tree over 8 leaves, g[1:8] ... g[8:8])")
SEC2_ANCESTORS = Printed("at most ceil(log t) + 1 nodes", "Sec. 2, Tree-aggregation")
SEC2_SUM_NODES = Printed("at most log t nodes to compute any partial sum",
                         "Sec. 2, Tree-aggregation")
SEC2_NOISE = Printed("std O(log t / eps) per node; O(log^1.5 t / eps) per partial sum",
                     "Sec. 2, Tree-aggregation")
PROP_18 = Printed("|S| <= 2(1 + floor(log2(b - a + 1))); |S| <= 1 + log2(b) for a = 1",
                  "App. F, Prop. 18")

# --- Sec. 3, App. D -------------------------------------------------------------------------
THM_4_RDP = Printed("(z, z/(2 sigma^2))-RDP for all z", "Thm 4")
THM_4_CONDITION = Printed("if delta >= exp(-eps), then with sigma >= 2 sqrt(log(1/delta))/eps",
                          "Thm 4; App. D.1 ('in particular if delta >= exp(-eps)'); App. E.1")
THM_4_THRESHOLD = Printed("sigma >= 1/(sqrt(2 log(1/delta) + 2 eps) - sqrt(2 log(1/delta)))",
                          "App. D.1 (quadratic formula)")
THM_4_NODE_SENSITIVITY = Printed(
    "Delta = 2 alpha G sum_{j=0}^{ceil(|y-z|/N)-1} (1-alpha)^{jN} <= 4 alpha G",
    "Sec. 3 (proof sketch of Thm 4); App. D.1")
THM_4_V = Printed("V = (min(R, floor(log2 N)) + 1) T/N + sum_{j=floor(log2 N)+1}^{R} "
                  "floor(T/2^j) <= 4 log2(T) T/N", "Alg. 1; App. D.2")
LEM_5_CASE_2 = Printed("if ||eps_hat_t|| > ||grad F(w_t)||/2, then "
                       "-<grad F(w_t), m_hat_t/||m_hat_t||> <= 0", "App. F, proof of Lemma 5")
LEM_11 = Printed("E||eps_t|| <= 2 G sqrt(alpha) + 2 eta N L + eta L/alpha", "Lemma 11 (App. D.2)")
LEM_12 = Printed("E||m_hat_t - m_t|| <= 4 alpha G sigma sqrt(d V log2 T); 'at most log2 T "
                 "intervals in COMPOSE(1, t)'", "Lemma 12 and its proof (App. D.2)")
THM_6_NOISE = Printed("12 alpha G log2(T) sqrt(d T log(1/delta))/(eps sqrt(N))",
                      "App. D.2, first display of the proof of Thm 6")
THM_6 = Printed("((3/2)R + 6L sqrt(log2(T) log(1/delta)) + 12G sqrt(log2 T) log(1/delta)^(1/4)) "
                "d^(1/4)/sqrt(eps N) + 3L (d log(1/delta))^(1/4) sqrt(log2 T)/(4 sqrt(eps) "
                "N^(3/2)) + 6G/sqrt(N) + 6G log2(T) sqrt(d log(1/delta))/(eps N)", "Thm 6")
THM_6_RATE = Printed("O~(d^(1/4)/sqrt(eps N) + 1/sqrt(N))", "Thm 6; abstract")
THM_6_T = Printed("T = eps N^2/(log2(T) sqrt(d log(1/delta)))", "Thm 6")

# --- Sec. 4, App. B, E ----------------------------------------------------------------------
LEM_17 = Printed("G_[1,T] = (1-alpha)^{T-r} G_[1,r] + ... (Eq. (3))", "Eq. (3); Lemma 17 (App. F)")
ALG_2_V = Printed("V_{<=2N} = 3 log2 N, V_{>2N} = 4 (T/N) log2 N", "Alg. 2; App. E.1")
ALG_2_SENSITIVITIES = Printed("delta_G = 4G, delta_Delta = delta_r = 2 eta N", "Alg. 2")
THM_8_DELTA_SENSITIVITY = Printed("F^Delta_[a,b] has sensitivity at most 2 eta N L",
                                  "App. E.1, proof of Thm 8")
THM_8_RDP = Printed("(z, 3z/(2 sigma^2))-RDP for all z", "Thm 8; App. E.1")
THM_8_SIGMA = Printed("sigma >= 4 sqrt(log(1/delta))/eps", "Thm 8")
LEM_7 = Printed("192 G alpha log2(T) sqrt(d log(1/delta))/eps + 128 (G + 2L) alpha sqrt(eta d T "
                "log(1/delta)) log2(T)/eps + 16 eta L alpha log2(T) sqrt(3 d T N log(1/delta))"
                "/eps", "Lemma 7")
LEM_7_HYPOTHESES = Printed("alpha >= 1/N and gamma <= 1/2; Prop. 14 (special case: "
                           "gamma <= 1/2, (1 + ln 2)/N <= alpha)", "Lemma 7; App. E.2; Prop. 14")
LEM_7_VAR2 = Printed("Var_2 <= 4 sum_{i=0}^{q-1} (1-alpha)^{2Ni} (1-gamma)^{2q-2(i+1)} log2(N) "
                     "alpha^2 delta_G^2 sigma^2 V_{<=2N} <= 12 alpha^2 delta_G^2 sigma^2 log2^2(N)"
                     "/(1 - exp(-1))^2", "App. E.2, proof of Lemma 7")
THM_9 = Printed("((3/2)R + 24K(G + 2L) + 12L) d^(1/3)/(eps N)^(2/3) + 6G/sqrt(N) + 36 G K "
                "sqrt(d)/(eps N) + 9 K L sqrt(d)/(eps N), K = 16 log2(T) log(1/delta)", "Thm 9")
THM_9_T = Printed("T = N^(7/3) eps^(4/3)/d^(2/3)", "Thm 9; abstract")
THM_9_RATE = Printed("O~(d^(1/3)/(eps N)^(2/3) + 1/sqrt(N))", "Thm 9; abstract")
RUNTIME = Printed("O~(N^(11/3)/d^(2/3)) total run time", "Sec. 5, Limitations")

# --- App. C, F ------------------------------------------------------------------------------
THM_10 = Printed("(alpha, V alpha rho^2/2)-RDP for all alpha", "Thm 10 (App. C)")
THM_10_CONVERSION = Printed("(V rho^2 + rho sqrt(V log(1/delta)), delta) <= (2 rho sqrt(V "
                            "log(1/delta)), delta)-DP", "App. C, after Thm 10")
THM_10_PROOF = Printed("(1/(sigma sqrt(2 pi))^d) int exp(-(1-alpha)||x - G(D)||^2/(Delta^2/rho^2)) "
                       "exp(-alpha||x - G(D')||^2/(Delta^2/rho^2)) dx", "App. C, proof of Thm 10")
PROP_13 = Printed("sum_i (1-alpha)^{Ni} <= max(1, 1/(alpha N))/(1 - exp(-1))", "Prop. 13")
PROP_14 = Printed("sum_i (1-gamma)^{-i} (1-alpha)^{Ni} <= max(1, 1/(alpha N - "
                  "ln(1/(1-gamma))))/(1 - exp(-1))", "Prop. 14")
PROP_14_FIRST_LINE = Printed("sum_i (1-gamma)^{-i} (1-alpha)^{Ni} = sum_i ((1-alpha)^N)^i",
                             "App. F, proof of Prop. 14, first line")
PROP_16 = Printed("sum_i b_i gamma^{2(s mod 2^i)} <= 1 + sum_{i=1}^R gamma^{2^i}", "Prop. 16")
