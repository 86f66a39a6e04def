"""Streams recorded before salts and before Dueling Wizards version 2 keep verifying (issue 9, 20).

data/streams_recorded_before_salts.json holds four matches autoplayed by the code as it stood at
commit fca4cc7 (the last before salted hashes): two Dueling Wizards duels under engine version 1
(a whole-deck shuffle, the per-round Joker ruling), a Wizard Dodgeball match and a draft. They
carry no hash_scheme and no salts, and must verify exactly as they did when they were played.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from audit.matchverify import verify_match_stream

RECORDED = json.loads((Path(__file__).parent / "data" / "streams_recorded_before_salts.json").read_text())


@pytest.mark.parametrize("match", RECORDED, ids=[f"{m['game']}-{len(m['events'])}" for m in RECORDED])
def test_a_stream_recorded_before_salts_verifies_under_the_scheme_it_was_written_with(match):
    events = [{**e, "salt": None} for e in match["events"]]
    assert "hash_scheme" not in events[0]["data"]
    verdict = verify_match_stream(events)
    assert verdict.verified, verdict.reason
    assert verdict.head_hash == match["head_hash"] and verdict.result == match["result"]


def test_the_old_dueling_wizards_streams_replay_under_engine_version_1():
    duels = [m for m in RECORDED if m["game"] == "dueling-wizards"]
    assert duels and {m["events"][0]["data"]["engine_version"] for m in duels} == {"1"}
    assert any(e["data"].get("spec", {}).get("kind") == "shuffle" for m in duels for e in m["events"])


def test_an_old_stream_with_a_salt_slipped_in_is_disputed():
    events = [{**e, "salt": None} for e in copy.deepcopy(RECORDED[0]["events"])]
    events[3]["salt"] = "0" * 64  # an unsalted stream must not grow salts later
    verdict = verify_match_stream(events)
    assert not verdict.verified and verdict.seq == 4
