"""Bok et al. 2024, Sec. 5 and App. D.4: Prop. 5.1, Cors 5.2 and 5.4, Remark 5.3, c*."""

import mpmath
import pytest
from mpmath import mpf

from dpsym.numerics import agreeing_digits, precision
from dpsym.papers import bok2024 as paper


def test_prop_5_1_and_corollaries():
    with precision(30):
        mu = paper.prop_5_1(1, 2, "0.1", 3, dps=30)
        expected = mpmath.sqrt((2 - mpf("0.1") * 2) / 2) / mpmath.sqrt(2)
        assert agreeing_digits(mu, expected) >= 28
        assert paper.cor_5_2(1, 2, dps=30) > mu  # the eta -> 0 limit is the largest
        assert agreeing_digits(paper.cor_5_4(1, 1, dps=30), mpf(2)) >= 29


def test_app_d4_threshold_separates_dominance():
    c = paper.app_d4_threshold(dps=40)
    with precision(40):
        # Oracle: mpmath.findroot of 2x - log(Phi(sqrt x)/Phi(-sqrt x)) at 60 digits.  (The
        # earlier reference 0.6763896796402601996 was the value rounded at the caller's
        # 15-digit precision, a leak since fixed.)
        assert agreeing_digits(c, mpf("0.6763896796402602031828433088206243926903")) >= 38
        for x, expect in ((c * mpf("0.999"), True), (c * mpf("1.001"), False)):
            assert paper.pure_dp_dominates_gdp(2 * x, 2 * mpmath.sqrt(x))[0] is expect


@pytest.mark.parametrize("call,match", [
    (lambda: paper.prop_5_1(1, 1, "0.5", 10), r"eta=0.5 violates 0 < eta <= 2/\(M\+m\)"),
    (lambda: paper.cor_5_2(1, 0), "m=0 violates m > 0"),
    (lambda: paper.cor_5_4(1, -1), "D=-1 violates D > 0"),
])
def test_section_5_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()




def test_prop_5_1_symbolic_and_montecarlo():
    assert set(paper.prop_5_1_symbolic().values()) == {0}
    r = paper.rem_5_3_montecarlo(n=20_000)
    assert max(abs(row["z"]) for row in r["rows"]) < 4


def test_cor_5_4_from_thm_4_3_and_pure_dp_oracle():
    assert paper.cor_5_4_from_thm_4_3(dps=20) <= 0
    # oracle: DRS22 Prop. 3, f_eps,0 >= G(mu) iff e^eps <= Phi(mu/2)/Phi(-mu/2)
    for eps, mu in ((1, 2), (1, 1), ("0.3", "0.6"), (2, 3)):
        with precision(30):
            want = mpmath.exp(mpf(eps)) <= mpmath.ncdf(mpf(mu) / 2) / mpmath.ncdf(-mpf(mu) / 2)
        assert paper.pure_dp_dominates_gdp(eps, mu, dps=30)[0] is bool(want)


def test_negative_lipschitz_constant_is_rejected():
    with pytest.raises(ValueError, match="L=-1 violates L >= 0"):
        paper.cor_5_2(-1, 1)
    with pytest.raises(ValueError, match="L=-1 violates L >= 0"):
        paper.prop_5_1(-1, 1, "0.05", 10)
