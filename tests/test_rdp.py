"""Poisson-subsampled Gaussian RDP against independent high-precision evaluations."""

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mpf

from dpsym import poisson_gaussian_rdp
from dpsym.numerics import agreeing_digits, precision


def _independent(q, sigma, alpha, dps=60):
    """A plain evaluation at dps + 80 digits that shares no code with dpsym.

    Integer alpha: the raw binomial sum A (not A - 1) then log A; real alpha: tanh-sinh
    quadrature of the raw integrand mu0 ((1-q) + q mu1/mu0)^alpha.  The 80 spare digits
    absorb the cancellation in log A ~ q^2 that dpsym avoids algebraically.
    """
    with precision(dps + 80):
        q, s, a = mpf(q), mpf(sigma), mpf(alpha)
        if a == int(a):
            n = int(a)
            A = mpmath.fsum(mpmath.binomial(n, k) * (1 - q) ** (n - k) * q**k
                            * mpmath.exp((k * k - k) / (2 * s * s)) for k in range(n + 1))
        else:
            def f(z):
                mu0 = mpmath.npdf(z, 0, s)
                return mu0 * ((1 - q) + q * mpmath.exp((2 * z - 1) / (2 * s * s))) ** a
            z0 = mpf(1) / 2 + s * s * mpmath.log((1 - q) / q)
            pts = sorted({mpf(0), mpf(2), a, z0})
            A = mpmath.quad(f, [mpmath.ninf, *pts, mpmath.inf])
        return mpmath.log(A) / (a - 1)


CASES = [
    ("1e-7", "1", 2), ("1e-7", "100", 2), ("1e-7", "0.1", 1024), ("1e-7", "100", 1024),
    ("0.01", "1", 32), ("0.5", "0.1", 64), ("1e-7", "1", "1.5"), ("1e-7", "10", "10.5"),
    ("0.01", "1", "1.5"), ("0.1", "2", "10.5"), ("0.2", "0.5", "3.25"),
]


@pytest.mark.parametrize("q,sigma,alpha", CASES)
def test_rdp_40_digits_against_independent_evaluation(q, sigma, alpha):
    ours = poisson_gaussian_rdp(q, sigma, alpha, dps=50)
    assert agreeing_digits(ours, _independent(q, sigma, alpha)) >= 40


def test_rdp_special_cases_and_composition():
    assert poisson_gaussian_rdp(0, 1, 2) == 0
    with precision(40):
        assert poisson_gaussian_rdp(1, 2, 3, dps=40) == mpf(3) / 8
        one = poisson_gaussian_rdp("0.01", 1, 8, dps=40)
        assert abs(poisson_gaussian_rdp("0.01", 1, 8, steps=1000, dps=40) - 1000 * one) < \
            mpf(10) ** -34


def test_rdp_is_rounded_up():
    ours = poisson_gaussian_rdp("0.01", "1", 8, dps=20)
    assert ours >= _independent("0.01", "1", 8)


@given(q=st.floats(1e-8, 0.5), sigma=st.floats(0.5, 50), a=st.integers(2, 40),
       da=st.floats(0.05, 3))
def test_rdp_non_decreasing_in_alpha(q, sigma, a, da):
    lo = poisson_gaussian_rdp(q, sigma, a, dps=25)
    hi = poisson_gaussian_rdp(q, sigma, a + int(da * 4) + 1, dps=25)
    assert hi >= lo


@given(q=st.floats(1e-6, 0.3), sigma=st.floats(0.5, 20), a=st.integers(2, 12))
def test_integer_and_fractional_methods_agree(q, sigma, a):
    v_int = poisson_gaussian_rdp(q, sigma, a, dps=25, method="int")
    v_quad = poisson_gaussian_rdp(q, sigma, a, dps=25, method="quad")
    assert agreeing_digits(v_int, v_quad) >= 22


@pytest.mark.parametrize("kwargs,match", [
    ({"q": 1.5, "sigma": 1, "alpha": 2}, "q=1.5 violates 0 <= q <= 1"),
    ({"q": 0.1, "sigma": 0, "alpha": 2}, "sigma=0 violates sigma > 0"),
    ({"q": 0.1, "sigma": 1, "alpha": 1}, "alpha=1 violates alpha > 1"),
    ({"q": 0.1, "sigma": 1, "alpha": 2, "steps": 2.5}, "steps=2.5 violates an integer"),
    ({"q": 0.1, "sigma": 1, "alpha": 2.5, "method": "int"}, "alpha"),
    ({"q": float("nan"), "sigma": 1, "alpha": 2}, "NaN"),
])
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match) as info:
        poisson_gaussian_rdp(**kwargs)
    assert "Mironov, Talwar & Zhang 2019" in str(info.value)
