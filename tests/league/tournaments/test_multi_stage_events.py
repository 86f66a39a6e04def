"""Multi-stage events: a stage feeds another (a Swiss or a round robin cut to its top N in a
bracket; groups then a double-elimination playoff). The cut size, the bracket and the seeding
rule are options; the cut is a fact of the stream (``stage.advanced``), then the bracket's round."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.standings import progress, round_standings
from matches.commands import AT_HEAD
from matches.errors import Refusal
from matches.models import Event

from .helpers import field, open_tournament, pid, state

pytestmark = pytest.mark.django_db


def summary(client, tid):
    return client.get(f"/api/tournaments/{tid}/").json()


def command(client, tid, verb, **body):
    body.update(expected_seq=summary(client, tid)["head_seq"], event_id=str(uuid.uuid4()))
    r = client.post(f"/api/tournaments/{tid}/{verb}/", body, format="json")
    assert r.status_code in (200, 201), r.json()
    return r.json()


def rule(client, tid, pairing, winner):
    body = {"result": {"winner": winner}, "expected_seq": summary(client, tid)["head_seq"]}
    body["event_id"] = str(uuid.uuid4())
    r = client.post(f"/api/tournaments/{tid}/pairings/{pairing}/rule/", body, format="json")
    assert r.status_code in (200, 201), r.json()
    return r.json()


def open_pairings(data):
    return [p for rnd in data["rounds"] for p in rnd["pairings"] if p["status"] == "pending"]


def test_a_swiss_cut_to_its_top_eight_is_played_to_a_champion_through_the_api(alice, client_for):
    organiser = client_for(alice)
    players = field(16)
    r = organiser.post(
        "/api/tournaments/",
        {"name": "Open with a cut", "game": "dueling-wizards", "format": "swiss", "options": {"rounds": 3, "cut": 8}},
        format="json",
    )
    assert r.status_code == 201, r.json()
    tid = r.json()["id"]
    for p in players:
        command(organiser, tid, "register", user=p.username)
    data = command(organiser, tid, "start")
    for number in (1, 2, 3):
        for p in open_pairings(data):
            # The lower username wins every Swiss game, so the order of the field is known.
            data = rule(organiser, tid, p["id"], min(p["names"]))
        if number < 3:
            data = command(organiser, tid, "pair")
    assert data["progress"]["round_complete"] and data["progress"]["can_pair_next"]
    assert not data["progress"]["finished"] and data["bracket"] is None
    swiss_order = [row["player"] for row in data["standings"]["tables"][0]["rows"]]

    data = command(organiser, tid, "pair")
    assert [e["type"] for e in data["events"]] == ["stage.advanced", "round.paired"]
    stage = data["stage"]
    assert stage["qualified"] == swiss_order[:8] and stage["seeds"] == swiss_order[:8]
    assert (stage["format"], stage["cut"], stage["seeding"]) == ("single_elimination", 8, "standings")
    assert data["bracket"]["entrants"] == 8 and data["bracket"]["seeds"] == swiss_order[:8]
    assert [t["title"] for t in data["standings"]["tables"]] == ["Playoff", "Standings"]
    # The bracket moves on by itself, and the Swiss takes nobody new once it has been cut.
    refused = organiser.post(
        f"/api/tournaments/{tid}/pair/",
        {"expected_seq": data["head_seq"], "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["code"] == "bracket_advances_itself"
    (latecomer,) = field(1, prefix="late")
    late = client_for(latecomer).post(
        f"/api/tournaments/{tid}/join-late/",
        {"expected_seq": data["head_seq"], "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert late.status_code == 409 and late.json()["code"] == "late_join_not_allowed"

    seed = {p: i for i, p in enumerate(stage["seeds"])}
    while not data["progress"]["finished"]:
        pending = open_pairings(data)
        assert pending, data["progress"]
        for p in pending:
            data = rule(organiser, tid, p["id"], min(p["players"], key=seed.get))
    assert data["progress"]["status"] == "finished"
    playoff = data["standings"]["tables"][0]
    assert playoff["title"] == "Playoff" and playoff["rows"][0]["player"] == swiss_order[0]
    assert {row["player"] for row in playoff["rows"]} == set(swiss_order[:8])
    types = list(Event.objects.filter(stream_id=f"tournament:{tid}").values_list("type", flat=True))
    assert types.count("stage.advanced") == 1


def test_the_cut_seeds_by_rating_when_asked(alice):
    players = field(6)
    t = services.tournament_create(
        created_by=alice,
        name="Rated cut",
        game="dueling-wizards",
        format="round_robin",
        options={"cut": 4, "cut_seeding": "rating", "cut_format": "double_elimination"},
    )
    for i, p in enumerate(players):
        services.tournament_register(tournament=t, user=p, by=alice, rating=1000 + 10 * i, expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    while True:
        s = state(t)
        for record in [r for r in s["pairings"].values() if r["status"] == "pending"]:
            services.tournament_rule(
                tournament=t,
                pairing=record["id"],
                by=alice,
                result={"winner": min(record["players"], key=int)},
                expected_seq=AT_HEAD,
            )
        if state(t)["bracket"] is not None:
            break
        services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    qualified = [r["player"] for r in round_standings({**s, "bracket": None})][:4]
    assert s["stage"]["qualified"] == qualified
    # Seeded by rating: the later registrations were rated higher.
    assert s["stage"]["seeds"] == sorted(qualified, key=lambda p: -s["players"][p]["rating"])
    assert s["bracket"]["format"] == "double_elimination" and s["bracket"]["entrants"] == 4
    assert not progress(s)["finished"]


def test_groups_feed_a_double_elimination_playoff(alice):
    players = field(8)
    t = open_tournament(
        alice, "groups_playoff", players, start=True, groups=2, advance=2, cut_format="double_elimination"
    )
    while state(t)["bracket"] is None:
        for record in [r for r in state(t)["pairings"].values() if r["status"] == "pending"]:
            services.tournament_rule(
                tournament=t,
                pairing=record["id"],
                by=alice,
                result={"winner": min(record["players"], key=int)},
                expected_seq=AT_HEAD,
            )
        services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    assert s["bracket"]["format"] == "double_elimination" and s["bracket"]["entrants"] == 4
    while not progress(state(t))["finished"]:
        pending = [r for r in state(t)["pairings"].values() if r["status"] == "pending"]
        assert pending
        for record in pending:
            services.tournament_rule(
                tournament=t,
                pairing=record["id"],
                by=alice,
                result={"winner": min(record["players"], key=int)},
                expected_seq=AT_HEAD,
            )
    playoff = state(t)
    assert progress(playoff)["status"] == "finished"
    assert pid(players[0]) in s["bracket"]["seeds"]


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"cut": 1}, "cut"),
        ({"cut": 8, "cut_format": "swiss"}, "cut feeds"),
        ({"cut": 8, "cut_seeding": "coin"}, "seeded"),
    ],
)
def test_a_bad_cut_is_refused_and_nothing_is_created(alice, options, fragment):
    with pytest.raises(Refusal) as exc:
        services.tournament_create(
            created_by=alice, name="Bad cut", game="dueling-wizards", format="swiss", options=options
        )
    assert exc.value.code == "bad_options" and fragment in exc.value.message
    assert not Tournament.objects.filter(name="Bad cut").exists()


def test_the_new_tournament_form_sets_a_cut(alice):
    client = Client()
    client.force_login(alice)
    r = client.post(
        "/tournaments/",
        {
            "name": "Form cut",
            "game": "dueling-wizards",
            "format": "swiss",
            "bye_score": "1",
            "seeding": "registration",
            "seat_balance": "balanced",
            "cut": 8,
            "cut_format": "double_elimination",
            "cut_seeding": "rating",
        },
    )
    assert r.status_code == 302
    options = Tournament.objects.get(name="Form cut").state["options"]
    assert (options["cut"], options["cut_format"], options["cut_seeding"]) == (8, "double_elimination", "rating")
