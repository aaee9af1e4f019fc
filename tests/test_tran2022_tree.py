"""Tran & Cutkosky 2022: Figure 1, COMPOSE (Alg. 3), Prop. 18, Sec. 2 counts, App. F."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from mpmath import mpf

from dpsym.aggregation import Node
from dpsym.errors import HypothesisError
from dpsym.papers.tran2022 import preliminaries as pre
from dpsym.papers.tran2022 import technical as tec


def test_alg_3_table_t_le_8():
    want = {1: [(1, 1)], 2: [(1, 2)], 3: [(1, 2), (3, 3)], 4: [(1, 4)], 5: [(1, 4), (5, 5)],
            6: [(1, 4), (5, 6)], 7: [(1, 4), (5, 6), (7, 7)], 8: [(1, 8)]}
    assert {t: pre.alg_3(1, t) for t in range(1, 9)} == want


def test_prop_18_exhaustive_and_tightness():
    r = pre.prop_18_exhaustive(64, 130)
    assert r.holds and r.pairs == sum(130 - a + 1 for a in range(1, 65))
    # The general bound 2(1 + floor(log2 n)) is never reached for n >= 2 in this range ...
    assert all(s < 2 * (1 + n.bit_length() - 1) for n, s in r.max_size_by_length.items()
               if n >= 2)
    # ... but 2 floor(log2 n) is (so the bound is loose by at most 2).
    assert any(s == 2 * (n.bit_length() - 1) for n, s in r.max_size_by_length.items())
    general, prefix = pre.prop_18(1, 7)
    assert general == 6 and abs(prefix - (1 + mpmath.log(7, 2))) < 1e-12
    with pytest.raises(HypothesisError):
        pre.prop_18(3, 2)


def test_figure_1_data():
    f = pre.figure_1()
    assert [len(lv) for lv in f.levels] == [8, 4, 2, 1]
    assert f.compose == [Node(1, 4), Node(5, 6), Node(7, 7)]
    assert f.ancestors == [Node(5, 5), Node(5, 6), Node(5, 8), Node(1, 8)]


def test_sec2_counts():
    c7, c8 = pre.sec2_tree_counts(7), pre.sec2_tree_counts(8)
    assert c8.max_ancestors == 4 == c8.printed_ancestors  # ceil(log t) + 1 is exact at t = 2^k
    assert c7.max_prefix_nodes == 3 > c7.printed_sum_nodes  # "at most log t nodes" fails
    assert c8.max_window_nodes == 4 > c8.printed_sum_nodes


def test_sec2_noise_scalings():
    a, b = (pre.sec2_noise_scalings(t, 1, "1e-5", dps=20) for t in (2**6, 2**12))
    # node std ~ sqrt(levels): doubling log t multiplies it by sqrt(13/7), not by 2.
    ratio = b.node_std_gdp / a.node_std_gdp
    assert abs(ratio - mpmath.sqrt(mpf(13) / 7)) < 1e-12
    assert b.basic_node_scale / a.basic_node_scale == 2


# --- App. F ----------------------------------------------------------------------------------


def test_prop_13_holds_and_is_tight():
    for N in (1, 2, 10, 1000):
        for a in (mpf(1) / N, mpf(2) / N, mpf("0.5"), mpf(1)):
            if a <= 1:
                assert tec.prop_13(a, N).holds
    # Tight at alpha = 1/N as N grows: a bound 0.1% smaller would fail.
    r = tec.prop_13(mpf(1) / 10**6, 10**6)
    assert r.value > r.bound * (1 - mpf("0.001"))
    with pytest.raises(HypothesisError):
        tec.prop_13(0, 5)
    with pytest.raises(HypothesisError):
        tec.prop_13("0.5", 0)


def test_prop_14_and_its_special_case():
    for N in (2, 10, 1000):
        for g in ("0.01", "0.3", "0.5"):
            lg = mpmath.log(1 / (1 - mpf(g)))
            for m in ("1.01", "2", "5"):
                a = lg / N * mpf(m)
                if a <= 1:
                    assert tec.prop_14(a, g, N).holds
    with mpmath.workdps(30):
        near = tec.prop_14(mpmath.log(2) / 10 * (1 + mpf("1e-10")), "0.5", 10)
    assert near.bound > 10**9 and near.holds
    with pytest.raises(HypothesisError):
        tec.prop_14("0.01", "0.5", 10)  # alpha N < ln 2
    ok = tec.prop_14_special((1 + mpmath.log(2)) / 100, "0.5", 100)
    assert ok.hypothesis_holds and ok.holds
    # Lemma 7 uses the special case at alpha = 1/N, outside its hypothesis: it fails there.
    bad = tec.prop_14_special("0.01", "0.5", 100)
    assert not bad.hypothesis_holds and bad.value > 2 * bad.bound


def test_prop_14_proof_first_line_drops_a_factor():
    lhs, rhs = tec.prop_14_proof_first_line("0.5", "0.5", 2)
    assert lhs == 2 and abs(rhs - mpf(4) / 3) < 1e-14


def test_cor_15():
    for i in (1, 2, 5, 40):
        assert tec.cor_15("0.2", "0.1", 10, i).holds
    with pytest.raises(HypothesisError):
        tec.cor_15("0.2", "0.1", 10, 0)


def test_prop_16_exhaustive():
    cases, bad = tec.prop_16_exhaustive(9)
    assert cases == 3 * (2**10 - 1) and bad == 0
    assert tec.prop_16(Fraction(1, 2), 7) == (1 + Fraction(1, 4) + Fraction(1, 64),
                                              1 + Fraction(1, 4) + Fraction(1, 16))
    with pytest.raises(HypothesisError):
        tec.prop_16(1, 3)
