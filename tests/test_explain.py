"""The words and numbers the panels print."""

from attn_desktop.model import explain

from tests.support.seed_numbers import SAT_CAT_FORMULA


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


def test_large_numbers_print_as_powers_of_ten():
    assert explain.number(1.8e9) == "1.8e9" and explain.number(-2.5e12) == "-2.5e12"
    assert explain.number(1e18) == "1e18" and explain.number(1234567.0) == "1.2e6"
    assert explain.number(999999.0) == "999999.00"  # below a million the digits are still read one by one
    assert explain.vector([1.8e9, 0.5]) == "(1.8e9, 0.50)"
    assert explain.dot_product("a", "b", [3e4, 3e4], [3e4, 3e4]).endswith("30000.00 × 30000.00 = 1.8e9")


def test_short_numbers_drop_trailing_zeros_but_keep_exponents():
    assert [explain.short_number(v) for v in (1.5, -0.25, 2.0, 0.0, 2e10, -0.0001)] == ["1.5", "-0.25", "2", "0", "2e10", "0"]


def test_the_strongest_key_and_a_tie():
    tokens = ["The", "cat", "sat", "the"]
    assert explain.attends_most_to([0.1, 0.7, 0.1, 0.1], tokens) == "cat, 70%"
    assert explain.attends_most_to([0.4, 0.1, 0.1, 0.4], tokens) == "The and the, 40% each (a tie)"
    assert explain.attends_most_to([0.3, 0.3, 0.1, 0.3], tokens) == "The, cat and the, 30% each (a tie)"
    assert explain.attends_most_to([0.25] * 4, tokens) == "all 4 keys, 25% each (a tie)"
    assert explain.attends_most_to([0.4, 0.3996, 0.2004, 0.0], tokens) == "The and cat, 40% each (a tie)"
    assert explain.attends_most_to([0.401, 0.399, 0.2, 0.0], tokens) == "The, 40%"  # 40.1% against 39.9%: no tie


def test_tolerances_are_stated_as_a_student_reads_them():
    from attn_desktop.model.teaching.exercises import EXERCISES

    stated = {exercise.id: exercise.tolerance_text for exercise in EXERCISES}
    assert stated["matrix-size"] == "Only the exact numbers count as right."
    assert stated["lookup-ask-up"] == "Answers within ±0.05 of the exact value count as right."
    assert not any("±0 " in text for text in stated.values())


def test_wide_vectors_print_their_first_numbers_and_say_how_many():
    """A real model's head is 64 wide: every number would fill a panel and push the window off a projector."""
    wide = [0.5 * i - 1 for i in range(64)]
    assert explain.vector(wide) == "(-1.00, -0.50, …)"
    assert explain.whole_vector(wide).count(",") == 63
    assert explain.output_formula(wide) == "output = Σ weight × v = (-1.00, -0.50, …) (64 numbers)"
    formula = explain.dot_product("it", "cat", wide, [1.0] * 64)
    assert formula == f"q_it · k_cat = (-1.00) × 1.00 + (-0.50) × 1.00 + … = {sum(wide):.2f} (64 products)"
    eight = [1.0] * 8  # up to eight numbers are printed whole, as before
    assert explain.vector(eight) == "(" + ", ".join(["1.00"] * 8) + ")"
    assert "…" not in explain.dot_product("a", "b", eight, eight)
