"""Multi-stage events: a stage feeds another (a Swiss or a round robin cut to its top N in a
bracket; groups then a double-elimination playoff). The cut size, the bracket and the seeding
rule are options; the cut is a fact of the stream (``stage.advanced``), then the bracket's round."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.projection import bracket_of
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


# --------------------------------------------------------------------------------------
# Every round-by-round format feeds a bracket through the same base-class cut, and the event's
# final places are the bracket's, then everyone else's in the first stage's order.


def lowest_id_first(record, s):
    """The player with the lowest id wins a match; a pod finishes in id order."""
    order = sorted(record["players"], key=int)
    if record["players"] and formats_of(s).reports_finish(record):
        return {"finish": [[p] for p in order]}
    return {"winner": order[0]}


def formats_of(s):
    from league.tournaments.formats import registry

    return registry.of(s)


def play_out(t, organiser):
    """Every result ruled (lowest id first), every round paired, until the event is decided."""
    for _ in range(100):
        s = state(t)
        if progress(s)["finished"]:
            return s
        pending = [r for r in s["pairings"].values() if r["status"] == "pending" and None not in r["players"]]
        for record in pending:
            services.tournament_rule(
                tournament=t,
                pairing=record["id"],
                by=organiser,
                result=lowest_id_first(record, state(t)),
                expected_seq=AT_HEAD,
            )
        if progress(state(t))["can_pair_next"]:
            services.tournament_pair_next(tournament=t, by=organiser, expected_seq=AT_HEAD)
    raise AssertionError("the event never finished")


def first_stage_order(s):
    """The first stage's tables as the standings show them, flattened best first (groups: all
    winners, then all runners-up ...)."""
    tables = [tb for tb in standings_of(s)["tables"] if not tb.get("playoff") and not tb.get("places")]
    rows = [(r["rank"], g, i, r["player"]) for g, tb in enumerate(tables) for i, r in enumerate(tb["rows"])]
    return [p for *_, p in sorted(rows)], {p: rank for rank, _, _, p in rows}


def standings_of(s):
    from league.tournaments.standings import standings

    return standings(s)


def check_final_places(s, qualified_count):
    stage = s["stage"]
    tables = standings_of(s)["tables"]
    assert [tb["title"] for tb in tables][0] == "Playoff" and tables[-1]["title"] == "Final places"
    places = tables[-1]["rows"]
    playoff = tables[0]["rows"]
    assert len(stage["qualified"]) == qualified_count == len(playoff)
    # The playoff's places first, exactly as the bracket ranks them, the champion on top.
    assert [(r["player"], r["rank"]) for r in places[:qualified_count]] == [(r["player"], r["rank"]) for r in playoff]
    assert places[0]["player"] == min(stage["qualified"], key=int)
    # Then the rest, in the first stage's order, from the next place on; level players share.
    order, rank_in_stage = first_stage_order(s)
    rest = [p for p in order if p not in stage["qualified"]]
    assert [r["player"] for r in places[qualified_count:]] == rest
    assert len(places) == len(s["players"])
    previous = None
    for i, r in enumerate(places[qualified_count:]):
        if previous is not None and rank_in_stage[r["player"]] == rank_in_stage[previous["player"]]:
            assert r["rank"] == previous["rank"]
        else:
            assert r["rank"] == qualified_count + 1 + i
        previous = r
    return places


def stage_events(t):
    return list(
        Event.objects.filter(stream_id=f"tournament:{t.id}", type="stage.advanced").values_list("data", flat=True)
    )


def test_a_swiss_cut_ends_with_the_playoff_places_then_the_rest_by_swiss_standing(alice):
    players = field(12)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3, cut=4)
    s = play_out(t, alice)
    places = check_final_places(s, 4)
    assert places[0]["player"] == pid(players[0]) and len(stage_events(t)) == 1


def test_a_round_robin_cut_to_single_elimination_is_played_to_a_champion(alice):
    players = field(6)
    t = open_tournament(alice, "round_robin", players, start=True, cut=4)
    s = play_out(t, alice)
    assert s["stage"]["from"] == "round_robin" and s["stage"]["format"] == "single_elimination"
    # Everyone met everyone: the lower id won every game, so the table is p01..p06.
    assert s["stage"]["qualified"] == [pid(p) for p in players[:4]]
    check_final_places(s, 4)


def test_groups_record_their_playoff_as_a_stage_like_a_swiss_cut(alice):
    players = field(9)
    t = open_tournament(alice, "groups_playoff", players, start=True, groups=3, advance=2)
    s = play_out(t, alice)
    (advanced,) = stage_events(t)
    assert advanced["from"] == "groups_playoff" and advanced["format"] == "single_elimination"
    assert advanced["cut"] == 6 and advanced["seeding"] == "standings"
    # The group winners first (group order), then the runners-up: A1, B1, C1, A2, B2, C2.
    tables = [tb for tb in standings_of(s)["tables"] if "group" in tb]
    by_place = [[tb["rows"][place]["player"] for tb in tables] for place in range(2)]
    assert advanced["qualified"] == by_place[0] + by_place[1]
    assert sorted(advanced["seeds"]) == sorted(advanced["qualified"])
    # No first-round match of the playoff is between two players of one group.
    group_of = {p: g for g, members in enumerate(s["groups"]) for p in members}
    first = [s["pairings"].get(m.id) for m in bracket_of(s).matches if m.bracket == "main" and m.round == 1]
    played = [r["players"] for r in first if r and len(r["players"]) == 2 and None not in r["players"]]
    assert played
    assert all(group_of[a] != group_of[b] for a, b in played)
    places = check_final_places(s, 6)
    # The three third-placed players share seventh place.
    assert [r["rank"] for r in places[6:]] == [7, 7, 7]


def test_groups_then_double_elimination_records_the_stage_and_places_everyone(alice):
    players = field(8)
    t = open_tournament(
        alice, "groups_playoff", players, start=True, groups=2, advance=2, cut_format="double_elimination"
    )
    s = play_out(t, alice)
    assert s["stage"]["format"] == "double_elimination" and s["bracket"]["format"] == "double_elimination"
    check_final_places(s, 4)


def test_groups_seed_their_playoff_by_rating_when_asked(alice):
    players = field(8)
    t = services.tournament_create(
        created_by=alice,
        name="Rated groups",
        game="dueling-wizards",
        format="groups_playoff",
        options={"groups": 2, "advance": 2, "cut_seeding": "rating"},
    )
    for i, p in enumerate(players):
        services.tournament_register(tournament=t, user=p, by=alice, rating=1000 + 10 * i, expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = play_out(t, alice)
    stage = s["stage"]
    assert stage["seeding"] == "rating"
    ratings = [s["players"][p]["rating"] for p in stage["seeds"]]
    # Highest rated first, as far as keeping one group's players apart in round one allows.
    assert ratings[0] == max(ratings)
    check_final_places(s, 4)


def test_pods_feed_a_top_four_single_elimination_bracket(alice):
    players = field(8)
    t = open_tournament(alice, "pods", players, start=True, game="wizard-dodgeball", pod_size=4, rounds=2, cut=4)
    s = play_out(t, alice)
    assert s["stage"]["from"] == "pods" and len(s["stage"]["qualified"]) == 4
    # The bracket's matches had a winner, not a pod's finish.
    bracket_results = [r["result"] for r in s["pairings"].values() if r["bracket_match"] and r["status"] == "final"]
    assert bracket_results and all("winner" in r for r in bracket_results)
    check_final_places(s, 4)


def test_a_bracket_match_of_a_pods_event_refuses_a_finish(alice):
    players = field(8)
    t = open_tournament(alice, "pods", players, start=True, game="wizard-dodgeball", pod_size=4, rounds=1, cut=4)
    for record in open_pairings_of(t):
        order = sorted(record["players"], key=int)
        services.tournament_rule(
            tournament=t, pairing=record["id"], by=alice, result={"finish": [[p] for p in order]}, expected_seq=AT_HEAD
        )
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    (match, *_) = [r for r in open_pairings_of(t) if r["bracket_match"]]
    seq = state(t)["seq"]
    with pytest.raises(Refusal) as exc:
        services.tournament_rule(
            tournament=t,
            pairing=match["id"],
            by=alice,
            result={"finish": [[p] for p in match["players"]]},
            expected_seq=AT_HEAD,
        )
    assert exc.value.code == "bad_result" and state(t)["seq"] == seq


def open_pairings_of(t):
    return [r for r in state(t)["pairings"].values() if r["status"] == "pending" and None not in r["players"]]


def test_the_trf_report_of_a_cut_swiss_lists_the_swiss_points_and_ranks_not_the_playoffs(alice):
    from league.tournaments.selectors import _trf_points, trf_report

    players = field(8)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3, cut=4)
    s = play_out(t, alice)
    (swiss,) = [tb for tb in standings_of(s)["tables"] if tb["title"] == "Standings"]
    lines = {line[14:47].strip(): line for line in trf_report(tournament=t).splitlines() if line.startswith("001")}
    assert len(lines) == 8
    for row in swiss["rows"]:
        assert f"{_trf_points(row['score'])} {row['rank']:4d}" in lines[row["name"]], row["name"]
