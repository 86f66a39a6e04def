"""Drafts on the platform (issue 4): the schoolyard draft through the API, refusals, clock,
hand-off to a Wizard Dodgeball match, and verification."""

from __future__ import annotations

import uuid
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from engines import registry
from engines.wizard_dodgeball.data import roster
from league.drafts.models import Draft
from matches.invitations.models import Invitation
from matches.models import Event, Match
from matches.verification import match_verify
from tests.matches.helpers import accept_invitation

DRAFT = registry.get("iwdl-draft")


@pytest.fixture
def coaches(alice, bob, carol):
    return alice, bob


def open_draft(client, **extra):
    """alice opens a draft against bob; the room opens when bob accepts her invitation (issue 15)."""
    response = client.post(
        "/api/drafts/", {"coaches": ["alice", "bob"], "format": "schoolyard", **extra}, format="json"
    )
    bob = APIClient()
    bob.force_authenticate(get_user_model().objects.get(username="bob"))
    draft_id = accept_invitation(lambda user: bob, response, "bob")
    return client.get(f"/api/drafts/{draft_id}/").json()


def clock(client, draft_id, expected_seq):
    """Any page may call the pick clock when its countdown ends: based on the head it saw, with an id."""
    return client.post(
        f"/api/drafts/{draft_id}/clock/", {"expected_seq": expected_seq, "event_id": str(uuid.uuid4())}, format="json"
    )


def draft_state(draft_id):
    return Match.objects.get(pk=draft_id)


def act(client, draft_id, verb, **body):
    seq = draft_state(draft_id).state_seq
    body.setdefault("event_id", str(uuid.uuid4()))  # every draft command carries its own id
    return client.post(f"/api/drafts/{draft_id}/{verb}/", {"expected_seq": seq, **body}, format="json")


def events(draft_id):
    return Event.objects.filter(stream_id=f"match:{draft_id}").count()


def test_opening_a_schoolyard_draft_shuffles_and_asks_player_two_about_the_first_pick(coaches, client_for):
    body = open_draft(client_for(coaches[0]))
    assert body["draft"]["game"] == "iwdl-draft" and body["draft"]["to_move"] == [1]
    assert body["clock_seconds"] == 60 and body["deadline"] and body["match"] is None
    view = client_for(coaches[1]).get(f"/api/drafts/{body['id']}/").json()["view"]
    assert view["phase"] == "choose_first" and len(view["pool"]) == 10
    assert view["deck"] is None  # the deck's order stays secret while the draft is live


def test_only_player_two_may_pass_the_first_pick_and_a_refusal_writes_nothing(coaches, client_for):
    alice, bob = coaches
    draft = open_draft(client_for(alice))["id"]
    before = events(draft)
    refused = act(client_for(alice), draft, "pass")
    assert refused.status_code == 422 and refused.json()["code"] in {"only_player_two_may_pass", "not_your_turn"}
    assert events(draft) == before
    assert act(client_for(bob), draft, "pass").status_code == 201
    assert draft_state(draft).state["phase"] == "picking"
    assert registry.get("iwdl-draft").to_move(draft_state(draft).state) == [0]  # player 1 picks first


def test_picks_out_of_turn_or_from_outside_the_pool_are_refused(coaches, carol, client_for):
    alice, bob = coaches
    draft = open_draft(client_for(alice))["id"]
    act(client_for(bob), draft, "take")
    pool = draft_state(draft).state["pool"]
    before = events(draft)
    out_of_turn = act(client_for(alice), draft, "pick", wizard=pool[0])
    assert out_of_turn.status_code == 422 and out_of_turn.json()["code"] in {"not_your_pick", "not_your_turn"}
    outsider = act(client_for(carol), draft, "pick", wizard=pool[0])
    assert outsider.status_code == 403 and outsider.json()["code"] == "not_a_coach"
    not_in_pool = next(j for j in sorted(roster()) if j not in pool)
    missing = act(client_for(bob), draft, "pick", wizard=not_in_pool)
    assert missing.status_code == 422 and missing.json()["code"] in {"wizard_not_in_pool", "wizard_taken"}
    assert events(draft) == before
    assert act(client_for(bob), draft, "pick", wizard=pool[0]).status_code == 201
    taken = act(client_for(alice), draft, "pick", wizard=pool[0])
    assert taken.status_code == 422 and taken.json()["code"] in {"wizard_taken", "wizard_not_in_pool"}


def finish_draft(clients, draft, *, spells=None):
    """Coaches draft as the clock would, then build teams (optionally with given spells)."""
    for _ in range(80):
        m = draft_state(draft)
        to_move = DRAFT.to_move(m.state)
        if not to_move:
            return m
        seat = to_move[0]
        action = DRAFT.auto_action(m.state, seat)
        action = {k: v for k, v in action.items() if k != "auto"}
        if action["type"] == "spells" and spells is not None:
            action["spells"] = spells
        seq = m.state_seq
        r = clients[seat].post(
            f"/api/matches/{draft}/actions/",
            {"seat": seat, "action": action, "expected_seq": seq, "event_id": str(uuid.uuid4())},
            format="json",
        )
        assert r.status_code == 201, r.json()
    raise AssertionError("draft did not end")


def test_spell_lists_over_budget_or_with_duplicates_are_refused(coaches, client_for):
    alice, bob = coaches
    draft = open_draft(client_for(alice))["id"]
    clients = {0: client_for(alice), 1: client_for(bob)}
    # Draft both teams and both line-ups; stop before spells. Each coach takes the
    # lowest-MAGIC wizard on offer, so no team can afford all ten spells (15 points).
    for _ in range(40):
        m = draft_state(draft)
        if m.state["phase"] == "building" and m.state["lineups"][0] is not None:
            break
        seat = DRAFT.to_move(m.state)[0]
        action = {k: v for k, v in DRAFT.auto_action(m.state, seat).items() if k != "auto"}
        if action["type"] == "pick":
            action["wizard"] = min(m.state["pool"], key=lambda j: (roster()[j]["magic"], j))
        clients[seat].post(
            f"/api/matches/{draft}/actions/",
            {"seat": seat, "action": action, "expected_seq": m.state_seq, "event_id": str(uuid.uuid4())},
            format="json",
        )
    m = draft_state(draft)
    budget = sum(roster()[j]["magic"] for j in m.state["lineups"][0])
    everything = [
        "teleport",
        "fireball",
        "freeze",
        "shield",
        "dispel",
        "slow_speed",
        "strong_weak",
        "shrink_enlarge",
        "butter_sticky",
        "drain_boost",
    ]  # 15 points: more than any team's MAGIC
    before = events(draft)
    over = act(clients[0], draft, "spells", spells=everything)
    assert over.status_code == 422 and over.json()["code"] == "spell_budget_exceeded"
    assert budget < 15 and str(budget) in over.json()["detail"] and "15" in over.json()["detail"]
    twice = act(clients[0], draft, "spells", spells=["freeze", "freeze"])
    assert twice.status_code == 422 and twice.json()["code"] == "duplicate_spell"
    assert events(draft) == before


def test_a_finished_draft_hands_off_to_a_wizard_dodgeball_match_linked_both_ways(
    coaches, client_for, django_capture_on_commit_callbacks
):
    alice, bob = coaches
    draft = open_draft(client_for(alice))["id"]
    with django_capture_on_commit_callbacks(execute=True):
        finished = finish_draft({0: client_for(alice), 1: client_for(bob)}, draft)
    assert finished.status == Match.Status.FINISHED
    room = Draft.objects.get(draft_match_id=draft)
    match = room.match
    assert match is not None and match.game == "wizard-dodgeball"
    # The draft's origin passes on: here, the invitation bob accepted (issue 15).
    invitation = str(Invitation.objects.get(match_id=draft).id)
    assert match.origin == {"draft": draft, "invitation": invitation, "accepted_by": ["bob"]}
    assert [s.user.username for s in match.seats.order_by("index")] == ["alice", "bob"]
    result = finished.result
    assert [t["wizards"] for t in match.config["teams"]] == [t["wizards"] for t in result["teams"]]
    assert [t["spells"] for t in match.config["teams"]] == [t["spells"] for t in result["teams"]]
    assert client_for(alice).get(f"/api/drafts/{draft}/").json()["match"] == str(match.id)
    # The created event of the match records where its teams came from.
    created = Event.objects.get(stream_id=match.stream_id, seq=1)
    assert created.data["origin"] == match.origin
    # The draft itself was verified by replay like any match.
    assert finished.__class__.objects.get(pk=draft).verdict == Match.Verdict.VERIFIED


def test_the_clock_refuses_before_the_deadline_and_auto_picks_after_it(coaches, client_for):
    alice, bob = coaches
    draft = open_draft(client_for(alice), clock_seconds=30)["id"]
    seq = draft_state(draft).state_seq
    early = clock(client_for(bob), draft, seq)
    assert early.status_code == 409 and early.json()["code"] == "clock_running"
    act(client_for(bob), draft, "take")
    state = draft_state(draft).state
    best = min(state["pool"], key=lambda j: (-roster()[j]["magic"], j))  # highest MAGIC, then lowest jersey
    later = timezone.now() + timedelta(seconds=31)
    with mock.patch("matches.eventstore.database_now", return_value=later):
        r = clock(client_for(alice), draft, draft_state(draft).state_seq)
    assert r.status_code == 200, r.json()
    assert r.json()["acted_for"] == [1]
    last = Event.objects.filter(stream_id=f"match:{draft}").order_by("-seq").first()
    assert last.actor == "clock" and last.data["action"] == {"type": "pick", "wizard": best, "auto": True}


def test_a_stale_clock_call_acts_on_nothing(coaches, client_for):
    alice, bob = coaches
    draft = open_draft(client_for(alice), clock_seconds=30)["id"]
    stale = draft_state(draft).state_seq - 1
    before = events(draft)
    with mock.patch("matches.eventstore.database_now", return_value=timezone.now() + timedelta(seconds=31)):
        r = clock(client_for(alice), draft, stale)
    assert r.status_code == 409 and r.json()["code"] == "stale_seq"
    assert events(draft) == before


def test_a_verified_draft_whose_stored_pick_is_altered_is_disputed(coaches, client_for):
    alice, bob = coaches
    draft = open_draft(client_for(alice))["id"]
    finished = finish_draft({0: client_for(alice), 1: client_for(bob)}, draft)
    assert match_verify(match_id=draft).verified
    pick = Event.objects.filter(stream_id=finished.stream_id, type="action", data__action__type="pick").order_by("seq")[
        2
    ]
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        cursor.execute(
            "UPDATE matches_event SET data = jsonb_set(data, '{action,wizard}', '99') WHERE id = %s", [pick.id]
        )
        cursor.execute("SET session_replication_role = origin")
    verdict = match_verify(match_id=draft)
    assert (verdict.verified, verdict.seq) == (False, pick.seq)


def test_opening_a_draft_needs_known_coaches_and_a_seat_for_the_opener(coaches, carol, client_for):
    bad = client_for(coaches[0]).post("/api/drafts/", {"coaches": ["alice", "nobody"]}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_request"
    not_mine = client_for(carol).post("/api/drafts/", {"coaches": ["alice", "bob"]}, format="json")
    assert not_mine.status_code == 403
    assert Draft.objects.count() == 0


def test_a_basic_draft_deals_five_each_and_goes_straight_to_team_building(coaches, client_for):
    alice, bob = coaches
    body = open_draft(client_for(alice), format="basic")
    state = draft_state(body["id"]).state
    assert state["phase"] == "building"
    assert [len(t) for t in state["teams"]] == [5, 5]
    assert not set(state["teams"][0]) & set(state["teams"][1])


def test_a_tournament_draft_gives_four_coaches_six_wizards_each_in_snake_order(
    alice, bob, carol, make_user, client_for
):
    dave = make_user("dave")
    response = client_for(alice).post(
        "/api/drafts/",
        {"coaches": ["alice", "bob", "carol", "dave"], "format": "tournament", "order": "snake"},
        format="json",
    )
    draft = accept_invitation(client_for, response, bob, carol, dave)
    assert client_for(alice).get(f"/api/drafts/{draft}/").json()["hand_off"] is False  # teams meet in pairings
    clients = {0: client_for(alice), 1: client_for(bob), 2: client_for(carol), 3: client_for(dave)}
    order = []
    for _ in range(24):
        m = draft_state(draft)
        seat = DRAFT.to_move(m.state)[0]
        order.append(seat)
        assert act(clients[seat], draft, "pick", wizard=DRAFT.auto_action(m.state, seat)["wizard"]).status_code == 201
    assert order[:8] == [0, 1, 2, 3, 3, 2, 1, 0]
    assert [len(t) for t in draft_state(draft).state["teams"]] == [6, 6, 6, 6]
    finished = finish_draft(clients, draft)
    assert finished.status == Match.Status.FINISHED
    assert [len(t["wizards"]) for t in finished.result["teams"]] == [5, 5, 5, 5]
    assert all(t["alternate"] is not None for t in finished.result["teams"])
    assert Draft.objects.get(draft_match_id=draft).match is None


def test_a_team_of_coaches_shares_a_tournament_draft_seat(alice, bob, carol, make_user, client_for):
    dave, eve = make_user("dave"), make_user("eve")
    response = client_for(alice).post(
        "/api/drafts/",
        {"coaches": ["alice", "bob", "carol+dave", "eve"], "format": "tournament", "order": "straight"},
        format="json",
    )
    draft = accept_invitation(client_for, response, bob, carol, dave, eve)  # every coach of a team seat, too
    seats = client_for(alice).get(f"/api/drafts/{draft}/").json()["draft"]["seats"]
    assert [s["label"] for s in seats] == ["alice", "bob", "carol & dave", "eve"]
    for seat, user in ((0, alice), (1, bob)):
        m = draft_state(draft)
        assert (
            act(client_for(user), draft, "pick", wizard=DRAFT.auto_action(m.state, seat)["wizard"]).status_code == 201
        )
    # Seat 2 is on the clock: either of its two coaches may pick; nobody else may.
    m = draft_state(draft)
    before = events(draft)
    assert act(client_for(eve), draft, "pick", wizard=m.state["pool"][0]).status_code == 422
    assert events(draft) == before
    assert act(client_for(dave), draft, "pick", wizard=DRAFT.auto_action(m.state, 2)["wizard"]).status_code == 201
    assert client_for(carol).get(f"/api/drafts/{draft}/").json()["draft"]["your_seat"] == 2


def test_a_pick_clock_outside_five_seconds_to_a_day_is_refused(coaches, client_for):
    for seconds in (2, 90000):
        response = client_for(coaches[0]).post(
            "/api/drafts/", {"coaches": ["alice", "bob"], "clock_seconds": seconds}, format="json"
        )
        assert response.status_code == 400 and response.json()["code"] == "bad_clock"
    assert Draft.objects.count() == 0


def test_the_clock_of_a_finished_draft_is_refused(coaches, client_for):
    alice, bob = coaches
    draft = open_draft(client_for(alice))["id"]
    finished = finish_draft({0: client_for(alice), 1: client_for(bob)}, draft)
    r = clock(client_for(alice), draft, finished.state_seq)
    assert r.status_code == 409 and r.json()["code"] == "match_finished"


@pytest.mark.parametrize(
    ("verb", "body", "missing"),
    [
        ("pick", {}, "wizard"),
        # A field another verb takes does not stand in for this one's.
        ("pick", {"wizards": [1]}, "wizard"),
        ("lineup", {"wizard": 1}, "wizards"),
        ("spells", {}, "spells"),
        ("take", {}, "event_id"),
        ("pass", {}, "expected_seq"),
        ("ready", {}, "event_id"),
    ],
)
def test_each_draft_verb_refuses_a_missing_field_of_its_own_and_writes_nothing(
    coaches, client_for, verb, body, missing
):
    alice, bob = coaches
    draft = open_draft(client_for(alice))["id"]
    full = {**body, "expected_seq": draft_state(draft).state_seq, "event_id": str(uuid.uuid4())}
    full.pop(missing, None)
    before = events(draft)
    refused = client_for(bob).post(f"/api/drafts/{draft}/{verb}/", full, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_request"
    assert list(refused.json()["fields"]) == [missing]
    assert events(draft) == before


def test_the_schema_names_one_request_body_per_draft_verb(db):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/drafts/{draft_id}/{verb}/"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/DraftCommandBody"}
    components = schema["components"]["schemas"]
    bodies = [ref["$ref"].rsplit("/", 1)[1] for ref in components["DraftCommandBody"]["oneOf"]]
    guards = {"expected_seq", "event_id"}
    assert {name: set(components[name]["required"]) for name in bodies} == {
        "DraftPick": guards | {"wizard"},
        "DraftLineup": guards | {"wizards"},
        "DraftSpells": guards | {"spells"},
        "DraftCommand": guards,  # take, pass, ready (and the clock) take nothing else
    }
