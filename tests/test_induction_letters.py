"""Letters typed for the induction task: with or without spaces or commas, any case; anything else one sentence."""

import pytest

from attn_desktop.model.training.induction_task import INDUCTION, parse_letters


@pytest.mark.parametrize("typed", ["QDKWNRHBTCFJPMDKWNRH", "q d k w n r h b t c f j p m d k w n r h",
                                   " Q,D,K,W,N,R,H,B,T,C,F,J,P,M,D,K,W,N,R,H "])
def test_twenty_letters_are_read_however_they_are_typed(typed):
    assert parse_letters(INDUCTION, typed) == INDUCTION.example_tokens()


@pytest.mark.parametrize(("typed", "message"), [
    ("QDKW", "induction sequences have 20 letters; found 4"),
    ("", "induction sequences have 20 letters; found 0"),
    ("QDKWNRHBTCFJPMDKWNRHA", "induction sequences have 20 letters; found 21"),
    ("QDKWNRHBTCFJPMDKWNRZ", '"Z" is not among the induction letters; use A to X'),
    ("QDKW 1 Y ? é", '"1", "Y", "?" … are not among the induction letters; use A to X'),
])
def test_anything_else_is_one_sentence_saying_what_is_wrong(typed, message):
    with pytest.raises(ValueError) as error:
        parse_letters(INDUCTION, typed)
    assert str(error.value) == message and "\n" not in message
