"""The words and numbers the panels print."""

from attn_desktop.model import explain

from seed_numbers import SAT_CAT_FORMULA


def test_worked_dot_product_reads_like_the_demo():
    assert explain.dot_product("sat", "cat", [2.4, 0.6], [2.2, 1.0]) == SAT_CAT_FORMULA


def test_negative_factors_are_bracketed():
    assert explain.dot_product("on", "mat", [1.5, -1.2], [1.8, -0.9]) == (
        "q_on · k_mat = 1.50 × 1.80 + (-1.20) × (-0.90) = 3.78"
    )


def test_a_rounded_zero_has_no_sign():
    assert explain.number(-0.001) == "0.00" and explain.vector([-0.004, 1]) == "(0.00, 1.00)"


def test_divisor_header_and_matrix_formula_follow_the_settings():
    assert explain.divisor_header(2, True) == "÷ √2"
    assert explain.divisor_header(64, True) == "÷ √64"
    assert explain.divisor_header(2, False) == "÷ 1 (off)"
    assert explain.matrix_formula(True, False) == "softmax(QKᵀ/√d_k)"
    assert explain.matrix_formula(False, True) == "softmax(QKᵀ + causal mask)"


def test_shapes_follow_n_and_d():
    assert explain.shapes(6, 6, 2, 2).startswith("Q, K, V are 6 × 2. QKᵀ is 6 × 6, one row per query.")
    assert explain.shapes(1, 3, 2, 1) == (
        "Q is 1 × 2, K is 3 × 2, V is 3 × 1. QKᵀ is 1 × 3, one row per query. "
        "The output is 1 × 1, one mixed vector per query."
    )
