"""Birrell et al. 2024 core: Gaussian-mixture moments, Taylor bounds, Wang et al. bounds."""

import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mpf

from dpsym.errors import HypothesisError
from dpsym.numerics import precision
from dpsym.papers.birrell2024 import add_remove as ar
from dpsym.papers.birrell2024 import poisson_replace_one as pr
from dpsym.papers.birrell2024 import replace_one as ro
from dpsym.rdp import taylor as ty
from dpsym.rdp.gaussian_mixture import (
    B_abs_moment,
    B_tilde,
    F_minus_1,
    H,
    H_minus_1,
    H_minus_1_by_definition,
    M,
)
from dpsym.rdp.wang2019 import wang_lower_rdp, wang_upper_rdp


def oracle_M(sigma, k, dps):
    """Oracle: (44) summed at a generous fixed precision, sharing no code with dpsym."""
    with mpmath.workdps(dps):
        s = mpf(sigma)
        return mpmath.fsum((-1) ** (k - ell) * mpmath.binomial(k, ell)
                           * mpmath.exp(2 * ell * (ell - 1) / s**2) for ell in range(k + 1))


@pytest.mark.parametrize(("sigma", "k"), [(6, 3), (6, 40), (200, 20), (200, 36), ("0.5", 30),
                                          (20, 64)])
def test_M_keeps_precision_under_cancellation(sigma, k):
    ref = oracle_M(sigma, k, 1200)
    got = M(sigma, k, dps=30)
    with precision(40):
        assert abs(got / ref - 1) < mpf("1e-28")


def test_M_closed_forms_and_B_tilde_bounds_B():
    with precision(30):
        e = mpmath.exp(mpf(4) / 36)
        assert abs(M(6, 2, dps=30) - (e - 1)) < mpf("1e-29")
        assert abs(M(6, 3, dps=30) - (e - 1) ** 2 * (e + 2)) < mpf("1e-29")
        assert M(6, 0) == 1 and M(6, 1) == 0
        for j in (1, 3, 5):
            assert B_abs_moment(6, j, dps=20) <= B_tilde(6, j, dps=20)
        assert abs(B_abs_moment(6, 4, dps=20) / B_tilde(6, 4, dps=20) - 1) < mpf("1e-15")


@pytest.mark.parametrize(("alpha", "sigma", "q"), [(2, 6, "0.0024"), ("2.5", 6, "0.0024"),
                                                   (16, 50, "1e-8"), ("7.5", 2, "0.3")])
def test_H_two_ways(alpha, sigma, q):
    a = H_minus_1(alpha, sigma, q, dps=30)
    b = H_minus_1_by_definition(alpha, sigma, q, dps=30)
    with precision(30):
        assert abs(a / b - 1) < mpf("1e-25")
        assert abs(H(alpha, sigma, q, dps=30) - 1 - a) < mpf("1e-29")


def test_integer_alpha_expansion_terminates():
    # alpha = 2: H = 1 + q^2 M_2 exactly, and the m = 3 remainder bound vanishes
    with precision(30):
        q = mpf("0.01")
        assert abs(H_minus_1(2, 6, q, dps=30) - q**2 * M(6, 2, dps=30)) < mpf("1e-33")
    assert ty.R_tilde(2, 6, "0.01", 3) == 0


@settings(max_examples=15, deadline=None)
@given(alpha=st.integers(2, 40), sigma=st.sampled_from(["0.7", "2", "6", "30"]),
       q=st.sampled_from(["1e-6", "0.0024", "0.05", "0.3"]), m=st.integers(1, 6))
def test_taylor_bound_dominates_exact_H(alpha, sigma, q, m):
    exact = H_minus_1(alpha, sigma, q, dps=25)
    assert ty.h_taylor_bound(alpha, sigma, q, m, dps=25) >= exact


def test_symbolic_coefficients_through_order_5():
    import sympy as sp

    a = ty.alpha_s
    for k in range(6):
        expect = sp.ff(a, k) * ty.symbolic_M(k)
        assert sp.simplify(ty.h_derivative_at_0(k) - expect) == 0
    d2 = ty.replace_one_derivative_at_0(2)
    assert sp.simplify(d2 - a * (a - 1) * (sp.exp(ty.A_s) + sp.exp(ty.B_s)
                                          - 2 * sp.exp(ty.C_s))) == 0


def test_reference_values_one_step():
    # an independent implementation's values of the Figures 2, 6, 7 curves (sigma = 6, q = 0.0024)
    assert mpmath.nstr(ro.thm_3_4(10, 6, "0.0024", 4, dps=20), 6) == "3.55685e-6"
    assert mpmath.nstr(pr.thm_c_9(50, 6, "0.0024", 5, dps=20), 6) == "1.61563e-5"
    assert mpmath.nstr(ar.thm_3_3(50, 6, "0.0024", 3, dps=20), 6) == "1.79321e-5"
    assert mpmath.nstr(wang_upper_rdp(64, 6, "0.0024", dps=20), 6) == "0.000113123"
    assert mpmath.nstr(wang_upper_rdp("1.5", 6, "0.0024", dps=20), 6) == "2.70764e-6"


def test_wang_lower_equals_exact_add_remove():
    for a in (2, 5, 17):
        lo = wang_lower_rdp(a, 6, "0.0024", dps=30)
        ex = ar.thm_3_1(a, 6, "0.0024", dps=30)
        with precision(30):
            assert abs(lo / ex - 1) < mpf("1e-27")


def test_bounds_are_rounded_up_and_monotone_in_dps():
    lo = ro.thm_3_4("2.5", 6, "0.0024", 4, dps=15)
    hi = ro.thm_3_4("2.5", 6, "0.0024", 4, dps=40)
    with precision(50):
        assert lo >= hi


def test_thm34_dominates_true_divergence_at_worst_leading_configuration():
    with precision(25):
        true = mpmath.log1p(F_minus_1(4, 6, "0.05", dps=20, nodes=32)) / 3
        assert ro.thm_3_4(4, 6, "0.05", 4, dps=25) >= true


def test_steps_compose_linearly():
    one = ty.fswor_replace_one_rdp(3, 6, "0.0024", 4, dps=30)
    many = ty.fswor_replace_one_rdp(3, 6, "0.0024", 4, steps=1000, dps=30)
    with precision(30):
        assert abs(many / (1000 * one) - 1) < mpf("1e-25")


@pytest.mark.parametrize(("alpha", "sigma", "q"), [
    ("256", "200", "0.5"), ("256", "0.5", "1e-8"), ("1.0001", "200", "1e-8"),
    ("1.0001", "0.5", "0.5"), ("100.5", "20", "0.0024")])
def test_no_nan_on_the_domain_corners(alpha, sigma, q):
    for v in (ar.thm_3_3(alpha, sigma, q, 3, dps=15), ro.thm_3_4(alpha, sigma, q, 4, dps=15),
              wang_upper_rdp(alpha, sigma, q, dps=15)):
        assert mpmath.isfinite(v) and v >= 0


def test_float64_path_fails_where_mpmath_does_not():
    assert math.isnan(ty.fswor_replace_one_rdp_float64(40, 20, 0.0024, 4))
    assert mpmath.isfinite(ty.fswor_replace_one_rdp(40, 20, "0.0024", 4, dps=20))
    f = ty.fswor_replace_one_rdp_float64(10, 6, 0.0024, 4)
    assert abs(f / float(ty.fswor_replace_one_rdp(10, 6, "0.0024", 4, dps=20)) - 1) < 1e-12


@pytest.mark.parametrize(("fn", "kwargs", "name"), [
    (ty.fswor_replace_one_rdp, {"alpha": 1, "sigma": 6, "q": "0.1"}, "alpha"),
    (ty.fswor_replace_one_rdp, {"alpha": 2, "sigma": -1, "q": "0.1"}, "sigma"),
    (ty.fswor_replace_one_rdp, {"alpha": 2, "sigma": 6, "q": 1}, "q"),
    (ty.fswor_replace_one_rdp, {"alpha": 2, "sigma": 6, "q": "0.1", "m": 2}, "m"),
    (ty.fswor_add_remove_rdp, {"alpha": float("nan"), "sigma": 6, "q": "0.1"}, "alpha"),
    (wang_lower_rdp, {"alpha": "2.5", "sigma": 6, "q": "0.1"}, "alpha"),
    (ty.poisson_replace_one_rdp, {"alpha": 2, "sigma": 6, "q": "0.1", "variant": "x"},
     "variant"),
])
def test_bad_input_names_parameter(fn, kwargs, name):
    with pytest.raises(HypothesisError, match=f"^{name}="):
        fn(**kwargs)


def test_max_second_derivative_closed_forms():
    with precision(30):
        for rn, rd, cf in ((1, 1, ro.eq_69_closed_form), ("0.5", 1, pr.eq_96_closed_form),
                           (1, 2, ro.eq_136_closed_form)):
            v = ty.max_second_derivative(6, rn, rd, grid=20, dps=30)[0]
            assert abs(v / cf(6) - 1) < mpf("1e-25")


def test_c9_sigma_doubling_counterexample():
    step = pr.thm_c_9_step(10, 6, 4)
    assert not step.step_holds and step.exact <= step.conservative
    assert step.chi_coupled > 20 * step.chi_claimed
    # an oracle for F^(4)(0) at the anti-parallel pair: the printed (65) summed directly
    import sympy as sp

    f4 = sp.lambdify((ty.alpha_s, ty.A_s, ty.B_s, ty.C_s), ty.replace_one_derivative_at_0(4),
                     "mpmath")
    with precision(30):
        A = mpf(1) / 4 / 9  # |dmu| = |dmu'| = r/2 anti-parallel, sigma~ = 3
        assert abs(f4(mpf(10), A, A, -A) / step.exact - 1) < mpf("1e-25")
    with precision(30):
        assert abs(ty.F_tilde_poisson_conservative(10, 6, 4) / step.conservative - 1) < 1e-25
