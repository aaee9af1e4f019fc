"""Unit tests of the precision core."""

from fractions import Fraction

import mpmath
import pytest
from mpmath import mp, mpf

from dpsym.errors import HypothesisError, require_integer
from dpsym.numerics import (
    Phi,
    Phi_inv,
    agreeing_digits,
    find_root,
    log1mexp,
    log_sum_signed,
    logsumexp,
    minimize_scalar,
    nstr,
    precision,
    round_down,
    round_up,
    to_mpf,
)


@pytest.mark.parametrize("p", ["1e-300", "1e-5", "0.3", "0.5", "0.9", "1e-100000"])
def test_phi_inv_inverts_phi_to_working_precision(p):
    with precision(60):
        x = Phi_inv(p)
        assert abs(Phi(x) / mpf(p) - 1) < mpf(10) ** -55


def test_phi_inv_deep_tail_matches_independent_erfc_inversion():
    # Independent check: solve erfc(-x/sqrt2)/2 = 1e-300 with mpmath.findroot at 80 digits.
    with precision(80):
        ref = mpmath.findroot(lambda x: mpmath.erfc(-x / mpmath.sqrt(2)) / 2 - mpf("1e-300"),
                              mpf(-37))
    with precision(50):
        assert agreeing_digits(Phi_inv("1e-300"), ref) >= 48


def test_phi_inv_rejects_outside_unit_interval():
    for p in (0, 1, -0.1, 2, float("nan")):
        with pytest.raises(ValueError, match="p="):
            Phi_inv(p)


def test_to_mpf_coercions_and_rejections():
    with precision(30):
        assert to_mpf(Fraction(1, 3)) == mpf(1) / 3
        assert to_mpf("0.1") == mpf("0.1")
        assert to_mpf(0.5) == mpf("0.5")
    for bad in (float("nan"), float("inf"), True, "abc", None):
        with pytest.raises(ValueError):
            to_mpf(bad, "x")
    assert to_mpf(float("inf"), allow_inf=True) == mpmath.inf


def test_round_up_and_down_bracket_the_value():
    with precision(60):
        x = mpf(1) / 3
    up, down = round_up(x, 20), round_down(x, 20)
    with precision(60):
        assert down < x < up
        assert (up - down) / x < mpf(10) ** -19
    # Rounding keeps the requested digits even when the global precision is low.
    assert mp.dps == 15
    assert agreeing_digits(up, x) >= 19


def test_find_root_widens_without_a_fixed_cap():
    with precision(40):
        r = find_root(lambda x: x - mpf(10) ** 6, 0, 1)
        assert abs(r - mpf(10) ** 6) < mpf(10) ** -30
        # Domain-limited widening approaches an open boundary by halving.
        r = find_root(lambda x: mpmath.log(x) + 500, mpf("0.5"), 1, lower=0)
        assert abs(r - mpmath.exp(-500)) / mpmath.exp(-500) < mpf(10) ** -35


def test_find_root_sides_bracket_the_root():
    with precision(30):
        f = lambda x: x**2 - 2  # noqa: E731
        lo = find_root(f, 0, 2, side="lower")
        hi = find_root(f, 0, 2, side="upper")
        assert lo <= mpmath.sqrt(2) <= hi
        assert hi - lo < mpf(10) ** -28


def test_find_root_reports_no_sign_change():
    with precision(20), pytest.raises(ArithmeticError):
        find_root(lambda x: x**2 + 1, -1, 1, max_widen=50)


def test_log_helpers():
    with precision(40):
        assert abs(logsumexp([mpf(1000), mpf(1000)]) - (1000 + mpmath.log(2))) < mpf(10) ** -35
        assert logsumexp([mpmath.ninf]) == mpmath.ninf
        x = mpf("-1e-30")
        with precision(80):
            ref = mpmath.log(-mpmath.expm1(x))
        assert abs(log1mexp(x) - ref) < mpf(10) ** -35
        assert abs(log1mexp(mpf(-800)) + mpmath.exp(-800)) < mpf(10) ** -360
        # 1 - exp(-2^-70): 21 digits cancel; the inputs are exact binary numbers.
        tiny = mpf(2) ** -70
        sign, la = log_sum_signed([(1, mpf(0)), (-1, -tiny)])
        with precision(100):
            ref = mpmath.log(-mpmath.expm1(-tiny))
        assert sign == 1 and abs(la - ref) < mpf(10) ** -36
        assert log_sum_signed([(1, mpf(0)), (-1, mpf(0))]) == (0, mpmath.ninf)


def test_minimize_scalar_and_agreeing_digits_and_nstr():
    with precision(30):
        x, fx = minimize_scalar(lambda t: (t - 2) ** 2 + 1, 0, 5)
        assert abs(x - 2) < mpf(10) ** -12 and abs(fx - 1) < mpf(10) ** -24
    assert agreeing_digits(mpf("1.2345"), mpf("1.2346")) == 4
    assert agreeing_digits(1, 1) == 1000
    assert nstr(7) == "7"
    assert nstr(Fraction(1, 4), 3) == "0.25"


def test_require_integer():
    assert require_integer("n", 3.0, "ref") == 3
    assert require_integer("n", "12", "ref") == 12
    for bad in (2.5, True, "x", None):
        with pytest.raises(HypothesisError):
            require_integer("n", bad, "ref")
    with pytest.raises(HypothesisError, match="n >= 1"):
        require_integer("n", 0, "ref", minimum=1)
