"""GDP: delta(eps), eps(delta), composition, GDP -> RDP against independent evaluations."""

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mpf

from dpsym import compose_gdp, gdp_delta, gdp_epsilon, gdp_to_rdp
from dpsym.fdp import gdp_mu_from_epsilon_delta
from dpsym.numerics import agreeing_digits, precision


def _delta_60(mu, eps):
    """Independent 90-digit evaluation of Lemma A.3 (plain formula, no cancellation guard)."""
    with precision(90):
        m, e = mpf(mu), mpf(eps)
        return mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)


def _eps_60(mu, delta):
    """Independent inverse: mpmath's secant findroot on the log of Lemma A.3, 90 digits."""
    with precision(90):
        m, d = mpf(mu), mpf(delta)
        guess = m * (m / 2 - mpmath.sqrt(2) * mpmath.erfinv(2 * d - 1))
        if not mpmath.isfinite(guess):
            guess = m * m / 2 + m * mpmath.sqrt(-2 * mpmath.log(d))
        return mpmath.findroot(lambda e: mpmath.log(_delta_60(m, e)) - mpmath.log(d), guess)


@pytest.mark.parametrize("mu,eps", [("1", "1"), ("0.5", "0.1"), ("3", "10"), ("50", "1000"),
                                    ("0.01", "0.05"), ("10", "5")])
def test_gdp_delta_40_digits(mu, eps):
    assert agreeing_digits(gdp_delta(mu, eps, dps=50), _delta_60(mu, eps)) >= 40


@pytest.mark.parametrize("mu,delta", [("1", "1e-5"), ("0.5", "1e-10"), ("3", "1e-100"),
                                      ("50", "1e-100"), ("50", "1e-5"), ("0.1", "1e-3")])
def test_gdp_epsilon_40_digits(mu, delta):
    assert agreeing_digits(gdp_epsilon(mu, delta, dps=50), _eps_60(mu, delta)) >= 40


def test_gdp_epsilon_extreme_parameters():
    e = gdp_epsilon(1000, "1e-300", dps=30)
    with precision(40):
        assert abs(gdp_delta(1000, e, dps=40) / mpf("1e-300") - 1) < mpf(10) ** -25


def test_gdp_epsilon_is_a_safe_upper_bound():
    for mu, d in (("1", "1e-5"), ("2", "1e-8")):
        e = gdp_epsilon(mu, d, dps=30)
        with precision(60):
            assert _delta_60(mu, e) <= mpf(d)


def test_gdp_edge_cases():
    assert gdp_epsilon(0, "1e-5") == 0
    assert gdp_delta(0, 1) == 0
    # delta above the total variation 2 Phi(mu/2) - 1 needs no eps.
    assert gdp_epsilon(1, "0.5") == 0


@given(mu=st.floats(0.05, 20), e1=st.floats(0, 30), de=st.floats(0.01, 5))
def test_delta_is_decreasing_in_eps(mu, e1, de):
    assert gdp_delta(mu, e1 + de, dps=30) < gdp_delta(mu, e1, dps=30) or \
        gdp_delta(mu, e1, dps=30) == 0


@given(mu=st.floats(0.1, 10), eps=st.floats(0.01, 20))
def test_eps_delta_roundtrip_40_digits(mu, eps):
    d = gdp_delta(mu, eps, dps=50)
    if d < mpf("1e-280"):
        return
    assert agreeing_digits(gdp_epsilon(mu, d, dps=50), mpf(eps)) >= 40


def test_composition_and_rdp():
    with precision(40):
        assert compose_gdp(3, 4) == 5
        assert gdp_to_rdp(2, 3) == 6
    mu = gdp_mu_from_epsilon_delta(1, "1e-5", dps=30)
    with precision(40):
        assert agreeing_digits(gdp_delta(mu, 1, dps=40), mpf("1e-5")) >= 25


@pytest.mark.parametrize("call,match", [
    (lambda: gdp_delta(-1, 1), "mu=-1 violates mu >= 0"),
    (lambda: gdp_delta(1, -1), "eps=-1 violates eps >= 0"),
    (lambda: gdp_epsilon(1, 0), "delta=0 violates 0 < delta < 1"),
    (lambda: gdp_epsilon(1, 1.5), "delta=1.5"),
    (lambda: gdp_epsilon(float("nan"), 0.1), "NaN"),
    (lambda: gdp_to_rdp(1, 1), "alpha=1 violates alpha > 1"),
])
def test_bad_input_names_parameter_and_statement(call, match):
    with pytest.raises(ValueError, match=match) as info:
        call()
    assert "Lemma A" in str(info.value) or "NaN" in str(info.value)
