"""A Life Force chart in a new match's config holds rows of squares and its end mark, nothing else,
and stays small: the chart is copied into every view (views.py, ``life_chart``), so whatever it
carries goes out in every live frame to every seat and spectator. Before this check a config could
carry up to the API's whole body (256 KB) in the chart, under an unknown key, as its ``after_last``
or as tens of thousands of squares. A match already recorded with such a chart still sets up and
replays as it was recorded: only a new config is refused (``validate_config``), never ``setup``."""

import pytest

from engines.base import InvalidConfig, replay

from .helpers import E

BOOK = {
    "rows": [
        {"needs_life_force": 3, "squares": [5] * 6},
        {"needs_life_force": 2, "squares": [4, 4, 4, 3, 3, 3]},
        {"needs_life_force": 1, "squares": [2, 2, 2, 1, 1, 1]},
    ],
    "after_last": "End",
}

HOSTILE = {
    "an unknown key": {**BOOK, "payload": "x" * 200_000},
    "an end mark that is not a short text": {**BOOK, "after_last": {"nested": ["x" * 1000] * 100}},
    "a long end mark": {**BOOK, "after_last": "x" * 200_000},
    "a row of a hundred thousand squares": {
        "rows": [{"needs_life_force": 1, "squares": [1] * 100_000}],
        "after_last": "End",
    },
}


@pytest.mark.parametrize("chart", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_new_match_refuses_a_life_chart_that_carries_more_than_its_rows_and_end_mark(chart):
    with pytest.raises(InvalidConfig) as exc:
        E.validate_config({"life_chart": chart}, 2)
    assert exc.value.code == "bad_life_chart"


def test_the_books_chart_and_a_chart_without_an_end_mark_are_still_taken():
    assert E.validate_config({"life_chart": BOOK}, 2)["life_chart"] == BOOK
    plain = {"rows": [{"needs_life_force": 1, "squares": [3, 3, 1]}]}
    assert E.validate_config({"life_chart": plain}, 3)["life_chart"] == plain


@pytest.mark.parametrize("chart", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_match_recorded_with_such_a_chart_still_sets_up_and_replays(chart):
    config = {"max_rounds": 60, "life_chart": chart}
    state = replay(E, config, 2, [])
    assert state["chart"] == chart
    assert E.to_move(state)
