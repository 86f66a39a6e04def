"""The match REST API: creation, acting, refusals, and who sees what."""

from __future__ import annotations

import uuid

import pytest

from matches.models import Match

from .helpers import accept_invitation, event_count, first_legal, fresh, new_duel, play_out, post_action


def test_engine_list_names_every_game_with_its_version(client_for):
    games = {g["name"]: g for g in client_for().get("/api/engines/").json()}
    assert games["dueling-wizards"]["title"] == "Dueling Wizards"
    assert games["dueling-wizards"]["version"] == "3"
    assert (games["dueling-wizards"]["min_seats"], games["dueling-wizards"]["max_seats"]) == (2, 3)


def test_a_player_creates_a_match_and_the_server_deals_at_once(alice, bob, client_for):
    response = client_for(alice).post(
        "/api/matches/",
        {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}]},
        format="json",
    )
    match_id = accept_invitation(client_for, response, bob)  # bob is seated once he says yes
    body = client_for(alice).get(f"/api/matches/{match_id}/").json()
    assert body["status"] == "live" and body["mode"] == "server" and body["your_seat"] == 0
    assert [s["username"] for s in body["seats"]] == ["alice", "bob"]
    # created, then each seat's private draw of three: the first defender (seat 1) is to move, not chance.
    assert body["head_seq"] == 3 and body["to_move"] == [1]
    assert len(body["seed_commitment"]) == 64 and body["seed"] is None


@pytest.mark.parametrize(
    "payload, code",
    [
        ({"game": "chess", "seats": [{"username": "alice"}, {"username": "bob"}]}, "unknown_game"),
        ({"game": "dueling-wizards", "seats": [{"username": "alice"}]}, "bad_seat_count"),
        ({"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "alice"}]}, "duplicate_user"),
        ({"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "nobody"}]}, "invalid_request"),
        (
            {
                "game": "dueling-wizards",
                "seats": [{"username": "alice"}, {"bot": "random"}],
                "config": {"jokers": "yes"},
            },
            "bad_option_value",
        ),
        ({"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "genius"}]}, "unknown_bot"),
        (
            {"game": "dueling-wizards", "mode": "tabletop", "seats": [{"username": "alice"}, {"bot": "random"}]},
            "bot_at_tabletop",
        ),
    ],
)
def test_bad_match_requests_are_refused_with_a_code_and_create_nothing(alice, bob, client_for, payload, code):
    response = client_for(alice).post("/api/matches/", payload, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert Match.objects.count() == 0


def test_creating_a_match_needs_a_signed_in_user_who_takes_a_seat(alice, bob, carol, client_for, make_user):
    payload = {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}]}
    assert client_for().post("/api/matches/", payload, format="json").status_code == 401
    refused = client_for(carol).post("/api/matches/", payload, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    organiser = make_user("organiser", staff=True)
    assert client_for(organiser).post("/api/matches/", payload, format="json").status_code == 201


def test_a_card_not_in_hand_is_refused_and_the_event_count_is_unchanged(alice, bob, client_for):
    match = new_duel(alice, bob)
    hand = client_for(bob).get(f"/api/matches/{match.id}/state/").json()["view"]["hand"]
    missing = next(c for c in ("RA", "R2", "R3", "R4") if c not in hand)
    before = event_count(match)
    response = post_action(client_for(bob), match, 1, {"type": "defend", "card": missing})
    assert response.status_code == 422
    assert response.json()["code"] == "card_not_in_hand"
    assert event_count(match) == before


def test_acting_out_of_turn_is_refused(alice, bob, client_for):
    match = new_duel(alice, bob)
    hand = client_for(alice).get(f"/api/matches/{match.id}/state/").json()["view"]["hand"]
    before = event_count(match)
    response = post_action(client_for(alice), match, 0, {"type": "attack", "card": hand[0]})
    assert response.status_code == 422
    assert response.json()["code"] in {"not_your_turn", "waiting_for_defences"}
    assert event_count(match) == before


def test_nobody_may_act_for_another_users_seat(alice, bob, carol, client_for):
    match = new_duel(alice, bob)
    action = first_legal(client_for(bob), match, 1)[0]
    before = event_count(match)
    for user in (alice, carol):
        response = post_action(client_for(user), match, 1, action)
        assert response.status_code == 403
        assert response.json()["code"] == "not_your_seat"
    anonymous = post_action(client_for(), match, 1, action)
    assert anonymous.status_code == 401
    assert event_count(match) == before


def test_a_malformed_command_gets_a_readable_error(alice, bob, client_for):
    match = new_duel(alice, bob)
    response = client_for(bob).post(f"/api/matches/{match.id}/actions/", {"seat": 1}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert "expected_seq" in response.json()["detail"]
    nonsense = post_action(client_for(bob), match, 1, {"type": "fly"})
    assert nonsense.status_code == 422 and nonsense.json()["detail"]


def test_a_seat_sees_its_own_hand_and_no_one_elses_while_live(alice, bob, carol, client_for):
    match = new_duel(alice, bob)
    bob_view = client_for(bob).get(f"/api/matches/{match.id}/state/").json()["view"]
    spectator = client_for(carol).get(f"/api/matches/{match.id}/state/").json()["view"]
    assert len(bob_view["hand"]) == 3
    assert bob_view["players"][1]["hand"] == bob_view["hand"]
    assert bob_view["players"][0]["hand"] is None
    assert spectator["hand"] is None and all(p["hand"] is None for p in spectator["players"])


def test_while_live_the_event_list_hides_the_shuffle_and_other_seats_defences(alice, bob, client_for):
    match = new_duel(alice, bob)
    card = first_legal(client_for(bob), match, 1)[0]["card"]
    assert post_action(client_for(bob), match, 1, {"type": "defend", "card": card}).status_code == 201
    for user, sees_card in ((alice, False), (bob, True)):
        events = client_for(user).get(f"/api/matches/{match.id}/events/").json()["events"]
        shuffle = next(e for e in events if e["type"] == "chance")
        assert shuffle["data"]["outcome"] is None and shuffle["data"]["hidden"] is True
        defence = next(e for e in events if e["type"] == "action")
        assert (defence["data"]["action"].get("card") == card) is sees_card
    assert client_for(alice).get(f"/api/matches/{match.id}/legal/", {"seat": 1}).status_code == 403


def test_a_finished_match_is_public_to_everyone(alice, bob, carol, client_for, django_capture_on_commit_callbacks):
    match = new_duel(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):  # the verification task runs on commit
        finished = play_out({0: client_for(alice), 1: client_for(bob)}, match)
    assert finished.status == Match.Status.FINISHED
    events = client_for().get(f"/api/matches/{match.id}/events/").json()["events"]
    # Once finished, every private draw is public: three different cards from the pool each.
    draws = [e for e in events if e["type"] == "chance"]
    assert draws and all(len(set(e["data"]["outcome"])) == e["data"]["spec"]["count"] for e in draws)
    assert events[-1]["type"] == "match.finished" and events[-1]["data"]["seed"] == finished.seed_hex
    detail = client_for(carol).get(f"/api/matches/{match.id}/").json()
    assert detail["seed"] == finished.seed_hex and detail["head_hash"] == events[-1]["hash"]
    assert detail["verification"]["verdict"] == "verified"
    view = client_for(carol).get(f"/api/matches/{match.id}/state/").json()["view"]
    assert all(p["hand"] is not None for p in view["players"])


def test_state_at_n_replays_the_view_as_it_stood_then(alice, bob, client_for):
    match = new_duel(alice, bob)
    play_out({0: client_for(alice), 1: client_for(bob)}, match)
    at_one = client_for().get(f"/api/matches/{match.id}/state/", {"at": 1}).json()
    assert at_one["seq"] == 1 and at_one["view"]["phase"] == "deal"
    at_two = client_for().get(f"/api/matches/{match.id}/state/", {"at": 2}).json()["view"]
    assert at_two["phase"] == "deal" and [p["hand_size"] for p in at_two["players"]] == [3, 0]
    at_three = client_for().get(f"/api/matches/{match.id}/state/", {"at": 3}).json()["view"]
    assert at_three["phase"] == "defend" and all(p["hand_size"] == 3 for p in at_three["players"])
    bad = client_for().get(f"/api/matches/{match.id}/state/", {"at": "x"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_request"


def test_acting_on_a_finished_match_is_refused(alice, bob, client_for):
    match = play_out({0: client_for(alice), 1: client_for(bob)}, new_duel(alice, bob))
    before = event_count(match)
    response = post_action(client_for(bob), match, 1, {"type": "defend", "card": "RA"})
    assert response.status_code == 409 and response.json()["code"] == "match_finished"
    assert event_count(match) == before


def test_a_tabletop_match_takes_each_players_draw_from_the_table(alice, bob, client_for):
    match = new_duel(alice, bob, mode=Match.Mode.TABLETOP)
    summary = client_for(alice).get(f"/api/matches/{match.id}/").json()
    # A tabletop match has a stream secret too (it salts the hashes), committed now, revealed at the end.
    assert summary["to_move"] == ["chance"] and len(summary["seed_commitment"]) == 64 and summary["seed"] is None
    bad = client_for(alice).post(
        f"/api/matches/{match.id}/actions/",
        {"seat": 0, "chance": [0, 0, 1], "expected_seq": 1, "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert bad.status_code == 422 and bad.json()["code"] == "bad_chance_outcome"
    ok = client_for(alice).post(
        f"/api/matches/{match.id}/actions/",
        {"seat": 0, "chance": {"cards": ["RA", "R3", "R5"]}, "expected_seq": 1, "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert ok.status_code == 201, ok.json()
    ok = client_for(bob).post(
        f"/api/matches/{match.id}/actions/",
        {"seat": 1, "chance": {"cards": ["R2", "R4", "R6"]}, "expected_seq": 2, "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert ok.status_code == 201, ok.json()
    assert client_for(alice).get(f"/api/matches/{match.id}/state/").json()["view"]["hand"] == ["RA", "R3", "R5"]
    assert client_for(bob).get(f"/api/matches/{match.id}/state/").json()["view"]["hand"] == ["R2", "R4", "R6"]


def test_a_server_dealt_match_refuses_outcomes_from_players(alice, bob, client_for):
    match = new_duel(alice, bob)
    response = client_for(alice).post(
        f"/api/matches/{match.id}/actions/",
        {"seat": 0, "chance": list(range(70)), "expected_seq": fresh(match).state_seq, "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert response.status_code == 403 and response.json()["code"] == "server_deals_chance"


def test_playing_the_bot_the_bot_answers_within_the_same_request(alice, client_for, django_capture_on_commit_callbacks):
    match = new_duel(alice, bots=("random",))
    client = client_for(alice)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(500):
            m = fresh(match)
            if m.status == Match.Status.FINISHED:
                break
            summary = client.get(f"/api/matches/{m.id}/").json()
            assert summary["to_move"] == [0], "the bot never leaves a person waiting"
            assert post_action(client, m, 0, first_legal(client, m, 0)[0]).status_code == 201
    assert fresh(match).status == Match.Status.FINISHED
    assert fresh(match).verdict == Match.Verdict.VERIFIED


def test_the_openapi_schema_describes_the_match_endpoints(client_for):
    response = client_for().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/matches/",
        "/api/matches/{match_id}/actions/",
        "/api/matches/{match_id}/events/",
        "/api/matches/{match_id}/state/",
        "/api/matches/{match_id}/legal/",
        "/api/engines/",
    ):
        assert path in paths
    assert client_for().get("/api/docs/").status_code == 200


def test_the_event_list_pages_with_after_and_limit(alice, bob, client_for):
    match = play_out({0: client_for(alice), 1: client_for(bob)}, new_duel(alice, bob))
    client = client_for()
    seen, after = [], 0
    while after is not None:
        page = client.get(f"/api/matches/{match.id}/events/", {"after": after, "limit": 10}).json()
        assert len(page["events"]) <= 10
        seen += [e["seq"] for e in page["events"]]
        after = page["next_after"]
    assert seen == list(range(1, match.state_seq + 1))


def test_tabletop_refuses_moves_before_the_deal_and_outcomes_nobody_owes(alice, bob, client_for):
    match = new_duel(alice, bob, mode=Match.Mode.TABLETOP)
    early = post_action(client_for(bob), match, 1, {"type": "defend", "card": "RA"})
    assert early.status_code == 409 and early.json()["code"] == "chance_pending"
    for seat, user, cards in ((0, alice, ["RA", "R3", "R5"]), (1, bob, ["R2", "R4", "R6"])):
        deal = client_for(user).post(
            f"/api/matches/{match.id}/actions/",
            {
                "seat": seat,
                "chance": {"cards": cards},
                "expected_seq": fresh(match).state_seq,
                "event_id": str(uuid.uuid4()),
            },
            format="json",
        )
        assert deal.status_code == 201
    before = event_count(match)
    again = client_for(alice).post(
        f"/api/matches/{match.id}/actions/",
        {"seat": 0, "chance": [0, 1, 2], "expected_seq": fresh(match).state_seq, "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert again.status_code == 409 and again.json()["code"] == "no_chance_due"
    assert event_count(match) == before


def test_acting_for_a_seat_the_match_does_not_have_is_a_404(alice, bob, client_for):
    match = new_duel(alice, bob)
    response = post_action(client_for(alice), match, 5, {"type": "defend", "card": "RA"})
    assert response.status_code == 404 and response.json()["code"] == "no_such_seat"


def test_a_retried_create_with_the_same_event_id_returns_the_first_match(alice, bob, client_for):
    import uuid

    # Against a bot, so the match starts at once (a retried invitation: tests/matches/test_invitations.py).
    body = {
        "game": "dueling-wizards",
        "seats": [{"username": "alice"}, {"bot": "random"}],
        "event_id": str(uuid.uuid4()),
    }
    first = client_for(alice).post("/api/matches/", body, format="json")
    again = client_for(alice).post("/api/matches/", body, format="json")  # the first reply was lost
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["id"] == first.json()["id"] and Match.objects.count() == 1
    other = client_for(alice).post(
        "/api/matches/", {**body, "seats": [{"username": "alice"}, {"bot": "heuristic"}]}, format="json"
    )
    assert other.status_code == 409 and other.json()["code"] == "event_id_reused"
    assert Match.objects.count() == 1
