"""Tournaments through the API (issue 6): creation, refusals as {code, detail} with nothing
written, optimistic concurrency, idempotent retries, exports."""

from __future__ import annotations

import uuid

import pytest

from league.tournaments.models import Tournament
from matches.models import Event

from .helpers import field

pytestmark = pytest.mark.django_db


def events(tid):
    return Event.objects.filter(stream_id=f"tournament:{tid}").count()


def create(client, **body):
    body = {"name": "Spring Open", "game": "dueling-wizards", "format": "single_elimination", **body}
    return client.post("/api/tournaments/", body, format="json")


def guarded(client, tid, body):
    """A command as a page sends it: based on the head it saw, with a new id (both required)."""
    if "expected_seq" not in body:
        head = client.get(f"/api/tournaments/{tid}/")
        body["expected_seq"] = head.json()["head_seq"] if head.status_code == 200 else 0
    body.setdefault("event_id", str(uuid.uuid4()))
    return body


def command(client, tid, verb, **body):
    return client.post(f"/api/tournaments/{tid}/{verb}/", guarded(client, tid, body), format="json")


def pairing(client, tid, pid, verb, **body):
    return client.post(f"/api/tournaments/{tid}/pairings/{pid}/{verb}/", guarded(client, tid, body), format="json")


def test_an_organiser_creates_a_tournament_and_it_starts_as_a_stream_with_one_event(alice, client_for):
    r = create(client_for(alice), options={"third_place": True, "cap": 8})
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["is_organiser"] and body["head_seq"] == 1 and body["progress"]["status"] == "registration"
    assert body["options"]["third_place"] is True and body["options"]["cap"] == 8
    assert Event.objects.get(stream_id=f"tournament:{body['id']}").type == "tournament.created"
    listing = client_for().get("/api/tournaments/").json()["results"]
    assert listing[0]["name"] == "Spring Open"


@pytest.mark.parametrize(
    "body,code",
    [
        ({"game": "chess"}, "unknown_game"),
        ({"format": "ladder"}, "invalid_request"),
        ({"options": {"colour": "blue"}}, "bad_options"),
        ({"format": "swiss", "options": {"bye_score": 2}}, "bad_options"),
        ({"format": "swiss", "options": {"tiebreaks": ["buchholz", "coin"]}}, "bad_options"),
        ({"format": "pods", "game": "dueling-wizards", "options": {"placement_points": [1, 2, 3]}}, "bad_options"),
        (
            {"options": {"check_in_opens": "2030-01-02T10:00:00Z", "check_in_closes": "2030-01-01T10:00:00Z"}},
            "bad_options",
        ),
    ],
)
def test_a_bad_tournament_is_refused_with_a_code_and_nothing_is_created(alice, client_for, body, code):
    r = create(client_for(alice), **body)
    assert r.status_code == 400 and r.json()["code"] == code and r.json()["detail"]
    assert Tournament.objects.count() == 0


def test_an_anonymous_visitor_cannot_create_or_command(client_for, alice):
    assert create(client_for()).status_code == 401
    tid = create(client_for(alice)).json()["id"]
    r = command(client_for(), tid, "register")
    assert r.status_code in (401, 403) and "code" in r.json()


def test_a_stale_expected_seq_is_refused_with_409_and_writes_nothing(alice, bob, client_for):
    tid = create(client_for(alice)).json()["id"]
    assert command(client_for(alice), tid, "register", expected_seq=1).status_code == 201
    r = command(client_for(bob), tid, "register", expected_seq=1)
    assert r.status_code == 409 and r.json()["code"] == "stale_seq"
    assert events(tid) == 2
    assert command(client_for(bob), tid, "register", expected_seq=2).status_code == 201


def test_retrying_a_command_with_the_same_event_id_returns_the_stored_event_once(alice, client_for):
    tid = create(client_for(alice)).json()["id"]
    eid = str(uuid.uuid4())
    first = command(client_for(alice), tid, "register", event_id=eid)
    again = command(client_for(alice), tid, "register", event_id=eid)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["created"] is False and again.json()["events"][0]["seq"] == 2
    assert events(tid) == 2


def test_only_the_organiser_starts_seeds_pairs_rules_and_corrects(alice, bob, carol, client_for):
    tid = create(client_for(alice), format="swiss").json()["id"]
    for u in (alice, bob, carol):
        command(client_for(u), tid, "register")
    before = events(tid)
    for verb, body in (("start", {}), ("seed", {"method": "rating"}), ("pair", {})):
        r = command(client_for(bob), tid, verb, **body)
        assert r.status_code == 403 and r.json()["code"] == "not_organiser", verb
    assert events(tid) == before
    assert command(client_for(alice), tid, "start").status_code == 201
    state = client_for(bob).get(f"/api/tournaments/{tid}/").json()
    game = next(p for p in state["rounds"][0]["pairings"] if len(p["players"]) == 2)
    before = events(tid)
    for verb in ("rule", "correct"):
        r = pairing(client_for(bob), tid, game["id"], verb, result={"winner": game["players"][0]})
        assert r.status_code == 403 and r.json()["code"] == "not_organiser"
    r = pairing(client_for(bob), tid, game["id"], "no-show", absent=[game["players"][0]])
    assert r.status_code == 403
    assert events(tid) == before


def test_players_act_for_themselves_and_the_organiser_may_register_others(alice, bob, carol, client_for):
    tid = create(client_for(alice)).json()["id"]
    r = command(client_for(bob), tid, "register", user="carol")
    assert r.status_code == 403 and r.json()["code"] == "not_your_place"
    r = command(client_for(alice), tid, "register", user="carol")
    assert r.status_code == 201
    assert [p["name"] for p in r.json()["players"]] == ["carol"]
    r = command(client_for(alice), tid, "register", user="nobody")
    assert r.status_code == 400 and r.json()["code"] == "unknown_user"


def test_unknown_tournaments_pairings_and_verbs_are_404(alice, client_for):
    c = client_for(alice)
    assert c.get(f"/api/tournaments/{uuid.uuid4()}/").status_code == 404
    tid = create(c).json()["id"]
    assert command(c, tid, "explode").status_code == 404
    r = pairing(c, tid, "r9-9", "report", result={"winner": "alice"})
    assert r.status_code == 404 and r.json()["code"] == "pairing_not_found"


def test_standings_export_as_csv_and_swiss_as_a_trf_report(alice, client_for):
    players = field(6)
    c = client_for(alice)
    tid = create(c, format="swiss", options={"rounds": 2}).json()["id"]
    for p in players:
        command(c, tid, "register", user=p.username)
    command(c, tid, "start")
    state = c.get(f"/api/tournaments/{tid}/").json()
    for p in state["rounds"][0]["pairings"]:
        r = pairing(c, tid, p["id"], "rule", result={"winner": p["players"][0]})
        assert r.status_code == 201, r.json()
    csv_text = c.get(f"/api/tournaments/{tid}/standings.csv")
    assert csv_text["Content-Type"].startswith("text/csv")
    lines = csv_text.content.decode().splitlines()
    assert lines[0] == "table,rank,player,status,score,played,buchholz,median_buchholz,sonneborn_berger"
    assert len(lines) == 7 and lines[1].split(",")[4] == "1"
    trf = c.get(f"/api/tournaments/{tid}/trf.txt")
    assert trf["Content-Type"].startswith("text/plain")
    text = trf.content.decode()
    assert text.startswith("012 Spring Open")
    rows = [line for line in text.splitlines() if line.startswith("001")]
    assert len(rows) == 6 and all(" w 1" in r or " b 0" in r for r in rows)
    elim = create(c).json()["id"]
    r = c.get(f"/api/tournaments/{elim}/trf.txt")
    assert r.status_code == 409 and r.json()["code"] == "not_swiss"


def test_the_event_log_is_public_and_hash_chained(alice, bob, client_for):
    tid = create(client_for(alice)).json()["id"]
    command(client_for(bob), tid, "register")
    log = client_for().get(f"/api/tournaments/{tid}/events/").json()["events"]
    assert [e["type"] for e in log] == ["tournament.created", "player.registered"]
    assert log[1]["prev_hash"] == log[0]["hash"] and log[1]["actor"] == f"user:{bob.pk}"
