"""The verifier may apply events in place (issue 17, P1/P7): two owned states, the second one
event behind for the log lines. It must report exactly what the copying verifier reports, on
whole recorded matches of every engine version and on forged ones, refused at the same event
for the same reason."""

from __future__ import annotations

import json

import pytest

from audit.matchverify import APPLIED_IN_PLACE, engine_event, verify_match_stream
from engines import registry
from engines.base import replay

from ..engines.replay_golden import MARK_CASES, _dump
from ..engines.test_conformance import sample, seat_counts
from .recorded_streams import recorded_stream, rehashed


def _cases() -> list[tuple[str, str, int, dict]]:
    """Each golden playout's setting once (every version, seat count and option the goldens
    vary), and every seat count of the games without marks goldens."""
    cases: list[tuple[str, str, int, dict]] = []
    for game, marks in MARK_CASES.items():
        for case in marks:
            setting = (game, case["version"], case["seats"], case["config"])
            if setting not in cases:
                cases.append(setting)
    for engine in registry.all_engines():
        if engine.name not in MARK_CASES:
            cases.extend((engine.name, engine.version, n, {}) for n in seat_counts(engine))
    return cases


CASES = _cases()
#: Events of a recorded stream kept for the forgeries (each verified twice): long games (Wizard
#: Dodgeball's run to thousands of events) are cut there, and the cut stream is reported unfinished.
FORGED_BOUND = 1000


def _id(case) -> str:
    game, version, seats, config = case
    options = ",".join(f"{k}={v}" for k, v in config.items())
    return f"{game}@{version}-{seats}p" + (f"-{options}" if options else "")


@pytest.fixture(scope="module", params=CASES, ids=[_id(c) for c in CASES])
def recorded(request):
    game, version, seats, config = request.param
    engine = registry.get(game, version)
    return engine, recorded_stream(engine, seats, f"in-place-verify:{_id(request.param)}", config=config)


def _both(events):
    """The copying verifier's report and the in-place one's, on the same events."""
    kept = json.dumps(events)
    copying = verify_match_stream(events, in_place=False)
    in_place = verify_match_stream(events, in_place=True)
    assert json.dumps(events) == kept, "verifying changed the events it was given"
    return copying, in_place


def _action_seqs(events) -> list[int]:
    seqs = [e["seq"] for e in events[:FORGED_BOUND] if e["type"] == "action"]
    return [seqs[i] for i in sample(seqs, 3)]


def _forged(events, seq: int, data: dict) -> list[dict]:
    forged = [dict(e) for e in events[:FORGED_BOUND]]
    forged[seq - 1]["data"] = data
    return rehashed(forged, seq)


def test_every_registered_engine_version_has_recorded_streams_here():
    assert {(game, version) for game, version, _, _ in CASES} == {(e.name, e.version) for e in registry.all_engines()}
    assert APPLIED_IN_PLACE <= {e.name for e in registry.all_engines()}


def test_a_recorded_match_gets_the_copying_verifiers_whole_report_when_applied_in_place(recorded):
    engine, events = recorded
    copying, in_place = _both(events)
    assert copying.verified, copying.reason
    # Verdict, head hash, result, created, every event's log line and the final state.
    assert in_place == copying
    assert _dump(in_place.state) == _dump(copying.state)  # key order too: it is stored and served
    assert sorted(in_place.lines) == [e["seq"] for e in events if e["type"] in ("action", "chance")]
    assert verify_match_stream(events) == copying  # whichever way the game's default picks


def test_an_action_the_rules_refuse_forged_mid_stream_is_caught_at_its_seq_either_way(recorded):
    engine, events = recorded
    for seq in _action_seqs(events):
        seat = events[seq - 1]["data"]["seat"]
        forged = _forged(events, seq, {"seat": seat, "action": {"type": "no-such-action"}})
        copying, in_place = _both(forged)
        assert (copying.verified, copying.seq) == (False, seq)
        assert copying.reason.startswith("Replaying this event is refused by the rules")
        assert in_place == copying


def test_a_malformed_event_forged_mid_stream_is_caught_at_its_seq_either_way(recorded):
    engine, events = recorded
    for seq in _action_seqs(events):
        forged = _forged(events, seq, {"seat": events[seq - 1]["data"]["seat"]})
        copying, in_place = _both(forged)
        assert (copying.verified, copying.seq, copying.reason) == (False, seq, "The event is malformed ('action').")
        assert in_place == copying


def test_another_legal_action_forged_mid_stream_gets_the_same_report_either_way(recorded):
    """The states part from the recorded ones there, so whatever goes wrong later (an action no
    longer legal, a draw the rules no longer call for, another result) is found on states the
    in-place fold changed in place, at the same event as the copying fold finds it."""
    engine, events = recorded
    created = events[0]["data"]
    forged_any = False
    for seq in _action_seqs(events):
        before = replay(
            engine,
            created["config"],
            len(created["seats"]),
            [engine_event(e["type"], e["data"]) for e in events[1 : seq - 1]],
        )
        data = events[seq - 1]["data"]
        others = [a for a in engine.legal_actions(before, data["seat"]) if a != data["action"]]
        if not others:
            continue
        forged_any = True
        copying, in_place = _both(_forged(events, seq, {"seat": data["seat"], "action": others[-1]}))
        assert in_place == copying
        if not copying.verified:
            assert copying.seq >= seq
    assert forged_any, "no action in the sample had an alternative"
