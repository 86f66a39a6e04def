"""Log lines (describe): one line per event, consequences after public events, nothing hidden named."""

from engines.wizarding_duels.scenario import E, act, build, deal


def test_a_public_event_that_ends_a_clash_tells_its_result_and_the_impacts():
    s = build(
        models=[(0, "ron-weasley", "0,2", {}), (1, "death-eater-ii", "0,3", {})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    ev = {
        "kind": "action",
        "seat": 0,
        "action": {
            "type": "attack",
            "attack": "sword-of-gryffindor",
            "target": "1a",
            "artifact": "sword-of-gryffindor",
        },
    }
    s2 = E.apply(s, ev)
    assert E.describe(s, ev, s2) == "Ron Weasley attacks Death Eater II with sword-of-gryffindor."
    s3 = deal(s2, ["ex-plus1-move"])
    pool = E.draw_pool(s3)
    ev = {"kind": "chance", "outcome": [pool.index("ex-zero-jinx")]}
    line = E.describe(s3, ev, E.apply(s3, ev))
    assert "Death Eater II takes 3 Impact(s)." in line


def test_a_hand_draw_names_no_card():
    s = build(models=[(0, "ron-weasley", "0,2", {}), (1, "death-eater-ii", "0,5", {})], active="0a")
    s = act(s, 0, {"type": "draw_clash"})
    ev = {"kind": "chance", "outcome": [0]}
    after = E.apply(s, ev)
    line = E.describe(s, ev, after)
    assert line == "Seat 0 draws 1 clash card(s)."
    assert after["cards"][after["players"][0]["hand"][0]] not in line
