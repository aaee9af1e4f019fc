"""What Birrell, Ebrahimi, Behnia & Pacheco 2024 (arXiv:2408.10456) print, as data.

Three kinds of entries, each a :class:`dpsym.claims.Printed` (the value verbatim, and where):

* **numbers the text prints** (accuracies, memory, the running setting);
* **formulas as printed**, written as sympy-parsable strings so that a claim compares the
  paper's own expression with dpsym's derivation (:func:`formula` parses one); where the
  paper misprints a formula, both the printed and the intended reading are here;
* **values of plotted curves**.  The paper prints no number inside its figures (it has no
  table); the ``FIGURE_*`` entries are the curves' values at a few points, from an
  independent implementation of the paper's formulas written from the paper alone (its
  one-step bounds agree with the authors' released code, github.com/star-ailab/FSRDP, to
  3e-10 relative).  They are references for the claims of kind ``figure``, never numbers
  the paper prints, and the claims never show them as ``printed``.

Section and equation numbers are the arXiv v3 / NeurIPS 2024 version's.
"""

from __future__ import annotations

import sympy as sp

from dpsym.claims import Printed

__all__ = [
    "ACCURACY_FSWOR",
    "ACCURACY_NONPRIVATE",
    "ACCURACY_POISSON",
    "EQ_11_Q2",
    "EQ_13",
    "EQ_18",
    "EQ_19_LEAD",
    "EQ_22",
    "EQ_41",
    "EQ_44_FIRST",
    "EQ_44_SECOND",
    "EQ_65",
    "EQ_67",
    "EQ_69",
    "EQ_96",
    "EQ_98_LEAD",
    "EQ_110",
    "EQ_120",
    "EQ_126",
    "EQ_126_INTENDED",
    "EQ_135",
    "EQ_136",
    "EQ_143",
    "EQ_145",
    "EQ_147",
    "EQ_152",
    "FACTOR_4",
    "FIG3_EPS_ALTERNATIVES",
    "FIGURE_1",
    "FIGURE_2",
    "FIGURE_3",
    "FIGURE_3_ORDERS",
    "FIGURE_4_SEEDS",
    "FIGURE_7",
    "FIGURE_8",
    "FIGURE_9",
    "FIGURE_10_BATCH_SIZES",
    "FIGURE_10_SIGMAS",
    "INDEX_SET",
    "INDEX_SET_INTENDED",
    "MEMORY_FSWOR_MB",
    "MEMORY_POISSON_MB",
    "SETTING",
    "formula",
]

# --- numbers the text prints -------------------------------------------------------------

#: The running setting (Secs. 3.4, 4.3; captions of Figures 2-9).
SETTING = {
    "sigma": Printed("6", "Sec. 4.3; captions of Figures 2, 3, 4, 7, 9"),
    "B": Printed("120", "Sec. 4.3; captions of Figures 2, 3, 4, 7, 9"),
    "D": Printed("50,000", "Sec. 4.3; captions of Figures 2, 3, 4, 7, 9"),
    "C": Printed("3", "Sec. 4.3; caption of Figure 4"),
    "lr": Printed("1e-3", "Sec. 4.3; caption of Figure 4"),
    "epochs": Printed("250", "Sec. 4.3; caption of Figure 3"),
}
ACCURACY_NONPRIVATE = Printed("81.33", "Sec. 4.3: the CNN without privacy, 250 epochs (%)")
ACCURACY_FSWOR = Printed("63.87", "Sec. 4.3: FSwoR-RDP DP-SGD, average over 5 seeds after "
                                  "250 epochs (%), Figure 4 (bottom)")
ACCURACY_POISSON = Printed("61.57", "Sec. 4.3: Opacus Poisson DP-SGD, average over 5 seeds "
                                    "after 250 epochs (%), Figure 4 (bottom)")
FIGURE_4_SEEDS = Printed("0, 1,364, 2,560, 3,000, 4,111", "Sec. 4.3 (sampling seeds)")
MEMORY_FSWOR_MB = Printed("14,826", "Sec. 4.4, Figure 5: FS-RDP GPU memory, constant (MB)")
MEMORY_POISSON_MB = Printed("7,984 to 23,280", "Sec. 4.4, Figure 5: Opacus Poisson RDP GPU "
                                               "memory range (MB), 'almost twice larger'")
FIGURE_10_SIGMAS = Printed("3.0, 4.5, 6.0, 12.0", "App. H, Figure 10 (a)")
FIGURE_10_BATCH_SIZES = Printed("50, 100, 150, 200", "App. H, Figure 10 (b)")
FACTOR_4 = Printed("4", "Sec. 3.4 after (19); App. E.1: 'tighter RDP bounds by a factor "
                        "of 4 than that of Wang et al.' (leading order in q and 1/sigma^2)")
EQ_152 = Printed("2", "App. G, eq. (152): eps_FS ~ 2 eps_P under add/remove")
#: Sec. 4.1 and App. F: B "uniformly selects a subset of size |B| from {2, ..., |D|}".
INDEX_SET = Printed("{2, ..., |D|}", "Sec. 4.1 and App. F (definition of B)")
INDEX_SET_INTENDED = Printed("{1, ..., |D|}", "the index set of J_i and R_j in Sec. 4.1")

# --- formulas as printed (sympy strings; symbols as in the paper) ---------------------------

EQ_44_FIRST = Printed("Sum((-1)**(k - l)*binomial(k, l)*exp(2*l*(l - 1)/sigma**2), (l, 0, k))",
                      "App. B, eq. (44), first form")
EQ_44_SECOND = Printed("Sum((-1)**(k - l)*binomial(k, l)*exp(2*l*(l - 1)/sigma**2), (l, 2, k))"
                       " + (-1)**(k - 1)*(k - 1)", "App. B, eq. (44), second form")
EQ_11_Q2 = Printed("q**2/2*alpha*(alpha - 1)*(exp(4/sigma**2) - 1)",
                   "Thm 3.2, eq. (11): the q^2 term, with M_{sigma,2} = e^{4/sigma^2} - 1")
EQ_18 = Printed("2*q**2*alpha*(exp(4/sigma**2) - 1)",
                "Sec. 3.4, eq. (18): Wang et al.'s one-step bound to O(q^3)")
EQ_65 = Printed("Sum((-1)**(k - j)*binomial(k, j)*ff(alpha, j)*rf(alpha - 1, k - j)"
                "*E(j, k - j), (j, 0, k))",
                "App. C, eq. (65), with E(j, l) = E_{N_0}[X^j Y^l]")
EQ_41 = Printed("ff(alpha, k)*M(k)", "App. B, eqs. (40)-(41): H^(k)(0) = (alpha)_k M_{sigma,k}")
EQ_67 = Printed("alpha*(alpha - 1)*(exp(A) + exp(B) - 2*exp(C))",
                "App. C, eq. (67), with A = |dmu|^2/s~^2, B = |dmu'|^2/s~^2, "
                "C = dmu.dmu'/s~^2")
EQ_69 = Printed("2*alpha*(alpha - 1)*(exp(4/sigma**2) - exp(2/sigma**2))", "App. C, eq. (69)")
EQ_96 = Printed("2*alpha*(alpha - 1)*(exp(1/sigma**2) - exp(-1/sigma**2))",
                "App. C.1, eq. (96)")
EQ_136 = Printed("2*alpha*(alpha - 1)*(exp(4/sigma**2) - exp(-4/sigma**2))",
                 "App. E.3, eq. (136)")
EQ_19_LEAD = Printed("q**2*alpha*(alpha - 1)*(exp(4/sigma**2) - exp(2/sigma**2))",
                     "Thm 3.4, eq. (14): the q^2 term (its leading order is (19))")
EQ_98_LEAD = Printed("q**2*alpha*(alpha - 1)*(exp(1/sigma**2) - exp(-1/sigma**2))",
                     "Thm C.9, eq. (98): the q^2 term")
EQ_120 = Printed("alpha*B/(alpha - 1)*(2*B*(alpha - 1)/sigma**2 - log(B) - log(1/q))",
                 "App. D.2, eq. (120)")
EQ_22 = Printed("(1 - abar**2/a2bar)/(1 - 1/N)", "Sec. 4.1, eq. (22) = App. F, eq. (146)")
EQ_145 = Printed("(1 - abar**2/a2bar)/(1 - B/N)", "App. F, eq. (145)")
EQ_147 = Printed("(1 - 1/N)/(1 - B/N)", "App. F, eq. (147)")
EQ_143 = Printed("VarP/(1 - B/N) - abar**2/B", "App. F, eq. (143), last line (VarP = Var[Z_P])")
#: (13) prints sigma inside sum_t of a bound whose mechanism has noise sigma_t.
EQ_13 = Printed("sum_{t=0}^{T-1} 1/(alpha-1) log[1 + q^2/2 alpha(alpha-1) M_{sigma,2} "
                "+ R~_{alpha,sigma,3}(q)]", "Thm 3.3, eq. (13)")
#: (110) prints q where the argument needs q~ of (106).
EQ_110 = Printed("q >= (1 + a'_0 / sum_{n=1}^K a'_n)^(-1)", "App. D.1, eq. (110)")
EQ_126 = Printed("eps'_t(alpha) >= 1/(alpha-1) F_{T,alpha}(4 sigma_t^2, 0)",
                 "App. D.2.1, eq. (126)")
EQ_126_INTENDED = Printed("eps'_t(alpha) >= 1/(alpha-1) log F_{T,alpha}(4/sigma_t^2, 0)",
                          "what (119) with (121)-(125) gives")
#: (135) prints mu_t for Delta mu_t in the inner product.
EQ_135 = Printed("|mu_t . Delta mu'_t| <= r_t^2", "App. E.3, eq. (135)")


def formula(p: Printed, **symbols: object) -> sp.Expr:
    """Parse a printed formula (a sympy string above) with the paper's symbols.

    Every symbol is positive except A, B, C of (67) (real); ``symbols`` substitutes values.

    >>> formula(EQ_69, sigma=2, alpha=3)
    -12*exp(1/2) + 12*E
    """
    names = {n: sp.Symbol(n, positive=True) for n in ("alpha", "sigma", "q", "k", "l", "B")}
    names.update({n: sp.Symbol(n, real=True) for n in ("A", "C")})
    if "exp(A)" in p.value:
        names["B"] = sp.Symbol("B", real=True)
    expr = sp.sympify(p.value, locals=names)
    return expr.subs({names[k]: v for k, v in symbols.items()})


# --- values of plotted curves (not printed; see the module docstring) ---------------------

_FIG = "plotted, not printed"

#: Figure 2 (and the Thm C.9 / Thm 3.3 curves of Figures 4, 6, 7): one-step RDP at
#: sigma = 6, q = 0.0024; columns Thm 3.4 m = 3, 4, 5, Wang upper, Wang lower, Thm C.9
#: m = 4, Thm 3.3 m = 3, 4 (None: Wang's lower bound exists at integer alpha only).
FIGURE_2 = {
    a: {col: (Printed(v, f"Figure {fig} ({_FIG})") if v else None)
        for col, fig, v in zip(("thm3.4-m3", "thm3.4-m4", "thm3.4-m5", "wang-upper", "wang-lower",
                                "thmC.9-m4", "thm3.3-m3", "thm3.3-m4"),
                               ("2", "2", "2", "2", "2", "4 (top) / 7", "6", "6"), vals,
                               strict=True)}
    for a, vals in {
        "1.01": ("3.53696e-7", "3.53247e-7", "3.53246e-7", "2.70764e-6", None, "3.23427e-7",
                 "3.4205e-7", "3.4174e-7"),
        "1.5": ("5.26845e-7", "5.2509e-7", "5.25088e-7", "2.70764e-6", None, "4.80381e-7",
                "5.0784e-7", "5.07608e-7"),
        "2": ("7.04579e-7", "7.00754e-7", "7.0075e-7", "2.70764e-6", "6.7691e-7", "6.40569e-7",
              "6.7691e-7", "6.7691e-7"),
        "3": ("1.06832e-6", "1.05306e-6", "1.05302e-6", "4.08074e-6", "1.01566e-6", "9.61037e-7",
              "1.01599e-6", "1.01566e-6"),
        "5": ("1.81581e-6", "1.7616e-6", "1.76139e-6", "6.86563e-6", "1.69376e-6", "1.60234e-6",
              "1.69856e-6", "1.69376e-6"),
        "10": ("3.80587e-6", "3.55685e-6", "3.55463e-6", "1.40548e-5", "3.39249e-6",
               "3.20778e-6", "3.41808e-6", "3.39254e-6"),
        "16": ("6.43359e-6", "5.75905e-6", "5.74907e-6", "2.31135e-5", "5.43756e-6",
               "5.13846e-6", "5.50922e-6", "5.43785e-6"),
        "20": ("8.33625e-6", "7.25832e-6", "7.23812e-6", "2.94167e-5", "6.80497e-6",
               "6.42816e-6", "6.92013e-6", "6.80557e-6"),
        "32": ("1.4809e-5", "1.19214e-5", "1.18334e-5", "4.96109e-5", "1.09267e-5", "1.031e-5",
               "1.12337e-5", "1.09294e-5"),
        "50": ("2.68538e-5", "1.94565e-5", "1.91031e-5", "8.3583e-5", "1.71649e-5", "1.61707e-5",
               "1.79321e-5", "1.71759e-5"),
        "64": ("3.83686e-5", "2.5857e-5", "2.50931e-5", "1.13123e-4", "2.20638e-5", "2.07628e-5",
               "2.33316e-5", "2.20874e-5"),
    }.items()}

#: Figures 3 and 4 (top): eps(delta) after 250 epochs; columns Thm 3.4 m = 3, 4, 5, Wang
#: upper, Wang lower, Thm C.9 m = 4 (Figure 4 top draws Thm 3.4 m = 4, Wang upper, C.9).
FIGURE_3 = {
    d: dict(zip(("thm3.4-m3", "thm3.4-m4", "thm3.4-m5", "wang-upper", "wang-lower", "thmC.9-m4"),
                (Printed(v, f"Figure {'4 (top)' if i in (1, 3, 5) else '3'} ({_FIG})")
                 for i, v in enumerate(vals)), strict=True))
    for d, vals in {
        "1e-3": ("0.79578", "0.76126", "0.76086", "1.6837", "0.73938", "0.71554"),
        "1e-4": ("1.0036", "0.95418", "0.95348", "2.046", "0.92631", "0.89715"),
        "1e-5": ("1.1822", "1.1181", "1.1170", "2.3586", "1.0838", "1.0507"),
        "1e-6": ("1.3418", "1.2630", "1.2615", "2.6379", "1.2231", "1.1859"),
        "1e-7": ("1.4875", "1.3944", "1.3925", "2.8938", "1.3482", "1.3080"),
        "1e-8": ("1.6228", "1.5154", "1.5131", "3.1254", "1.4637", "1.4201"),
        "1e-9": ("1.7498", "1.6283", "1.6254", "3.3447", "1.5709", "1.5244"),
        "1e-10": ("1.8699", "1.7345", "1.7311", "3.5535", "1.6718", "1.6222"),
        "1e-11": ("1.9843", "1.8351", "1.8311", "3.7466", "1.7667", "1.7147"),
        "1e-12": ("2.0938", "1.9310", "1.9264", "3.9362", "1.8572", "1.8025"),
    }.items()}
#: The optimal orders at delta = 1e-5 on the Figure 3 grid (Wang lower: integers 2..32).
FIGURE_3_ORDERS = {col: Printed(v, f"Figures 3-4 ({_FIG}): best order at delta = 1e-5")
                   for col, v in (("thm3.4-m4", "15.94"), ("wang-upper", "9.01"),
                                  ("wang-lower", "17"), ("thmC.9-m4", "17.01"))}
#: The Figure 4 (top) Thm 3.4 curve at delta = 1e-5 under the training script's
#: conventions (T = 416 * 250, Opacus's default orders) and under Mironov's (148).
FIG3_EPS_ALTERNATIVES = {
    "training-script": Printed("1.1171", "Sec. 4.3 training setting (T = 104,000 steps, "
                                         f"Opacus orders); {_FIG}"),
    "mironov-148": Printed("1.3548", f"the Figure 3 curve converted with (148); {_FIG}"),
}

#: Figure 7: one-step RDP at alpha = 50, 55, 60, m = 5; columns Thm C.9 (as printed),
#: Wang lower, Thm 3.4, Wang upper.
FIGURE_7 = {a: dict(zip(("thmC.9-m5", "wang-lower", "thm3.4-m5", "wang-upper"),
                        (Printed(v, f"Figure 7 ({_FIG})") for v in vals), strict=True))
            for a, vals in {"50": ("1.61563e-5", "1.71649e-5", "1.91031e-5", "8.35830e-5"),
                            "55": ("1.77878e-5", "1.89097e-5", "2.12072e-5", "9.38169e-5"),
                            "60": ("1.94220e-5", "2.06598e-5", "2.33501e-5", "1.04402e-4")}.items()}

#: Figure 1: Thm 3.7 at sigma = 6, q = 0.001, T_k = {0, 1, 2, |B|}, alpha = 2..10.
FIGURE_1 = {b: [Printed(v, f"Figure 1 ({_FIG})") for v in vals] for b, vals in {
    20: ["1.175e-7", "1.762e-7", "2.35e-7", "2.938e-7", "3.527e-7", "4.115e-7", "4.704e-7",
         "5.292e-7", "2.145"],
    30: ["1.175e-7", "1.762e-7", "2.35e-7", "2.938e-7", "3.526e-7", "4.115e-7", "46.55", "102.1",
         "156.4"],
    40: ["1.175e-7", "1.762e-7", "2.35e-7", "2.938e-7", "24.7", "127.7", "226.7", "323.2",
         "417.9"],
    60: ["1.175e-7", "1.762e-7", "2.35e-7", "174.8", "407.8", "629.9", "845.6", "1057", "1267"],
    80: ["1.175e-7", "1.762e-7", "218.0", "648.8", "1050", "1435", "1812", "2184", "2552"],
}.items()}

#: Figure 8: exact Thm 3.7 at alpha = 2, q = 0.001, by sigma and |B|.
FIGURE_8 = {s: {b: Printed(v, f"Figure 8 ({_FIG})") for b, v in row.items()} for s, row in {
    2: {2: "1.7198e-6", 50: "1.4180e3", 100: "7.6974e3", 200: "3.5118e4"},
    4: {2: "2.8407e-7", 50: "2.8410e-7", 100: "1.9742e2", 200: "5.1176e3"},
    6: {2: "1.1753e-7", 50: "1.1753e-7", 100: "1.1753e-7", 200: "1.1753e-7"},
}.items()}

#: Figure 9: one step at sigma = 6, |B| = 120, |D| = 50,000: Thm 3.6 (K = |B|), (112) with
#: K = 3 (the authors' code), Thm 3.7 (T_2 = all, T_k = {|B|}), FSwoR a/r Thm 3.3 (m = 4).
FIGURE_9 = {curve: {a: Printed(v, f"Figure 9 ({_FIG})") for a, v in row.items()}
            for curve, row in {
    "upper": {"1.001": "3.39402e-7", "1.1": "3.72981e-7", "1.5": "5.08671e-7",
              "1.8": "6.1046e-7", "1.85": "6.27426e-7", "1.9": "77.3638", "1.95": "193.291",
              "2": "295.593", "3": "1744.78", "4": "2761.18", "6": "4534.29", "8": "6208.48",
              "10": "7849.70"},
    "authors-K=3": {"2": "301.627", "3": "1750.81", "4": "2767.21", "6": "4540.33",
                    "8": "6214.52", "10": "7855.74"},
    "lower": {"2": "6.77099e-7", "3": "452.440", "4": "1468.84", "6": "3241.95", "8": "4916.14",
              "10": "6557.36"},
    "fswor": {"1.001": "3.38694e-7", "1.1": "3.72202e-7", "1.5": "5.07608e-7",
              "1.8": "6.09183e-7", "1.85": "6.26114e-7", "1.9": "6.43045e-7",
              "1.95": "6.59977e-7", "2": "6.76910e-7", "3": "1.01566e-6", "4": "1.35461e-6",
              "6": "2.03311e-6", "8": "2.71242e-6", "10": "3.39254e-6"},
}.items()}
