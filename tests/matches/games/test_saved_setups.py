"""Saved setups: a Wizarding Duels Group (and potion Stock) checked by the engine, saved to the
account, and played into a match from the home page's form (issue 13, the group builder)."""

from __future__ import annotations

import pytest

from engines.wizarding_duels import content, groups
from matches.models import SavedSetup

from ..helpers import at_once

pytestmark = pytest.mark.django_db

CHECK = "/api/games/wizarding-duels/groups/check/"


def a_group(seed=3, budget=50):
    pk = content.load("original-v1")
    g = groups.random_group(pk, budget, groups.Lcg(seed))
    stock = groups.random_stock(pk, g["models"], groups.Lcg(seed))
    return g, stock


def test_a_legal_group_and_stock_pass_every_part_of_the_engines_check(client_for):
    g, stock = a_group()
    r = client_for().post(
        CHECK, {"config": {"pack": "original-v1", "galleons": 50}, "group": g, "potions": stock}, format="json"
    )
    assert r.status_code == 200
    assert r.json() == {
        "legal": True,
        "refusals": {"group": None, "quests": None, "stock": None},
        "config": {"pack": "original-v1", "galleons": 50},
    }


def test_an_over_budget_group_is_refused_in_the_engines_own_sentence(client_for):
    # WD-3 (L1466-1476): models plus artifacts within the Galleon budget.
    g = {
        "type": "group",
        "models": ["ashen-regent", "lord-malvern", "cassius-vane", "grask-the-warden"],
        "leader": 0,
        "artifacts": [[], [], [], []],
        "spellbook": [],
        "quests": [],
    }
    r = client_for().post(CHECK, {"config": {"pack": "original-v1", "galleons": 30}, "group": g}, format="json")
    body = r.json()
    assert r.status_code == 200 and body["legal"] is False
    assert body["refusals"]["group"] == {
        "code": "over_budget",
        "detail": "The Group costs 43 Galleons; the budget is 30.",
    }
    # The quest deck is judged on its own, so the builder shows both refusals at once.
    assert body["refusals"]["quests"] == {"code": "quest_deck_size", "detail": "A Quest deck is exactly 9 quest cards."}


def test_a_stock_with_a_higher_level_potion_and_no_potioneer_is_refused(client_for):
    # WD-17 (L1126-1138): level-0 potions only, unless a Potioneer lifts one.
    g = {
        "type": "group",
        "models": ["aldous-wren"],
        "leader": 0,
        "artifacts": [[]],
        "spellbook": [],
        "quests": a_group()[0]["quests"],
    }
    stock = {"type": "potions", "potions": ["phoenix-tear"] + ["minor-salve"] * 5}
    r = client_for().post(CHECK, {"config": {"pack": "original-v1"}, "group": g, "potions": stock}, format="json")
    assert r.json()["refusals"]["stock"]["code"] == "stock_levels"
    assert r.json()["refusals"]["group"] is None


def test_an_unknown_pack_is_bad_input_not_a_verdict(client_for):
    g, _ = a_group()
    r = client_for().post(CHECK, {"config": {"pack": "no-such-pack"}, "group": g}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "unknown_pack"


def test_a_player_saves_a_group_lists_it_replaces_it_by_name_and_deletes_it(client_for, alice, bob):
    g, stock = a_group()
    data = {"config": {"pack": "original-v1", "galleons": 50}, "actions": [g, stock]}
    api = client_for(alice)
    r = api.post("/api/setups/", {"game": "wizarding-duels", "name": "Lanterns", "data": data}, format="json")
    assert r.status_code == 201
    setup_id = r.json()["id"]
    r = api.post("/api/setups/", {"game": "wizarding-duels", "name": "Lanterns", "data": data}, format="json")
    assert r.status_code == 200 and r.json()["id"] == setup_id
    assert [s["name"] for s in api.get("/api/setups/?game=wizarding-duels").json()["setups"]] == ["Lanterns"]
    # Another player neither sees nor deletes it.
    assert client_for(bob).get("/api/setups/").json() == {"setups": []}
    assert client_for(bob).delete(f"/api/setups/{setup_id}/").status_code == 404
    assert api.delete(f"/api/setups/{setup_id}/").status_code == 204
    assert not SavedSetup.objects.exists()


def test_an_illegal_group_is_not_saved_and_the_answer_is_the_engines_refusal(client_for, alice):
    g, _ = a_group()
    g["leader"] = 9
    r = client_for(alice).post(
        "/api/setups/",
        {"game": "wizarding-duels", "name": "Bad", "data": {"config": {}, "actions": [g]}},
        format="json",
    )
    assert r.status_code == 400
    assert r.json() == {"code": "bad_leader", "detail": "leader must be the index of one of the Group's models."}
    assert not SavedSetup.objects.exists()


def test_saving_needs_an_account(client_for):
    g, _ = a_group()
    r = client_for().post(
        "/api/setups/", {"game": "wizarding-duels", "name": "x", "data": {"actions": [g]}}, format="json"
    )
    assert r.status_code in (401, 403)
    assert not SavedSetup.objects.exists()


def test_the_new_match_form_plays_the_saved_group_and_stock_and_takes_their_budget(client, alice):
    from matches.models import Match

    g, stock = a_group(seed=5, budget=40)
    setup = SavedSetup.objects.create(
        user=alice,
        game="wizarding-duels",
        name="Forty",
        data={"config": {"pack": "original-v1", "galleons": 40}, "actions": [g, stock]},
    )
    client.force_login(alice)
    r = client.post(
        "/matches/new/",
        {"game": "wizarding-duels", "opponent": "", "bot": "", "mode": "server", "clock": "", "setup": str(setup.pk)},
    )
    assert r.status_code == 302
    match = Match.objects.get()
    assert match.config["galleons"] == 40
    mine = match.state["players"][0]
    # The bot built its own Group; the saved one and its Stock are seat 0's, and the game moved on.
    assert mine["group"]["models"] == g["models"]
    assert [p["id"] for p in mine["potions"]] == stock["potions"]
    assert match.state["queue"][0]["step"] not in ("build", "stock")


def test_the_form_refuses_a_setup_saved_for_another_game(client, alice):
    g, _ = a_group()
    setup = SavedSetup.objects.create(user=alice, game="wizarding-duels", name="G", data={"config": {}, "actions": [g]})
    client.force_login(alice)
    r = client.post(
        "/matches/new/",
        {"game": "dueling-wizards", "opponent": "", "bot": "", "mode": "server", "clock": "", "setup": str(setup.pk)},
    )
    assert r.status_code == 200
    assert "That setup is for another game" in r.content.decode()


@pytest.mark.parametrize(
    "body",
    [
        {"group": []},
        {"group": {"type": "group"}},
        {"group": {"type": "group", "models": [1, 2], "leader": 0, "artifacts": [], "spellbook": [], "quests": []}},
        {
            "group": {
                "type": "group",
                "models": ["veyra"],
                "leader": True,
                "artifacts": [[]],
                "spellbook": [],
                "quests": "x",
            }
        },
        {
            "group": {
                "type": "group",
                "models": ["veyra"],
                "leader": 0,
                "artifacts": [[{}]],
                "spellbook": [None],
                "quests": [1],
            }
        },
        {"config": {"pack": 5, "galleons": "lots"}, "group": {}},
        {"config": [], "group": {}},
        {
            "group": {
                "type": "group",
                "models": ["veyra"],
                "leader": 0,
                "artifacts": [[]],
                "spellbook": [],
                "quests": [],
            },
            "potions": {"type": "potions", "potions": [[], {}, 1, None, "x", "y"]},
        },
        {
            "group": {
                "type": "group",
                "models": ["veyra"],
                "leader": 0,
                "artifacts": [[]],
                "spellbook": [],
                "quests": [],
            },
            "potions": "six",
        },
    ],
)
def test_a_malformed_group_gets_an_answer_with_a_code_never_a_server_error(client_for, body):
    r = client_for().post(CHECK, body, format="json")
    assert r.status_code in (200, 400)
    data = r.json()
    if r.status_code == 400:
        assert data["code"] and data["detail"]
    else:
        assert data["legal"] is False and any(v and v["code"] for v in data["refusals"].values())


@pytest.mark.parametrize(
    "game, data, code",
    [
        ("dueling-wizards", {"actions": [{}]}, "no_setups_for_game"),
        ("wizarding-duels", {"actions": "the Group"}, "bad_setup"),
        ("wizarding-duels", {"actions": [], "notes": "x"}, "bad_setup"),
        ("wizarding-duels", {"actions": [{}, {}, {}]}, "bad_setup"),
        ("wizarding-duels", {"actions": [{"type": "group", "padding": "x" * 9000}]}, "setup_too_large"),
    ],
)
def test_a_setup_that_is_not_one_is_refused_with_a_code_and_nothing_saved(client_for, alice, game, data, code):
    r = client_for(alice).post("/api/setups/", {"game": game, "name": "N", "data": data}, format="json")
    assert r.status_code == 400 and r.json()["code"] == code and r.json()["detail"]
    assert not SavedSetup.objects.exists()


def test_a_player_keeps_at_most_fifty_setups_per_game_but_may_still_replace_one(client_for, alice):
    from matches.games.services import MAX_SETUPS_PER_GAME

    g, stock = a_group()
    data = {"config": {"pack": "original-v1", "galleons": 50}, "actions": [g, stock]}
    SavedSetup.objects.bulk_create(
        SavedSetup(user=alice, game="wizarding-duels", name=f"S{i}", data=data) for i in range(MAX_SETUPS_PER_GAME)
    )
    api = client_for(alice)
    refused = api.post("/api/setups/", {"game": "wizarding-duels", "name": "One more", "data": data}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "too_many_setups"
    replaced = api.post("/api/setups/", {"game": "wizarding-duels", "name": "S0", "data": data}, format="json")
    assert replaced.status_code == 200
    assert SavedSetup.objects.count() == MAX_SETUPS_PER_GAME


def test_the_group_check_refuses_a_body_far_larger_than_any_group(client_for):
    g, _ = a_group()
    r = client_for().post(CHECK, {"group": {**g, "padding": "x" * 20000}}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "setup_too_large"


def test_another_players_saved_setup_cannot_be_played_into_a_match(alice, bob):
    from matches.games.services import SetupError, setup_play
    from matches.services import SeatSpec, match_create

    g, stock = a_group()
    setup = SavedSetup.objects.create(
        user=alice, game="wizarding-duels", name="G", data={"config": {}, "actions": [g, stock]}
    )
    match = match_create(game="wizarding-duels", seats=[SeatSpec(user=bob), SeatSpec(bot="random")], created_by=bob)
    with pytest.raises(SetupError) as refused:
        setup_play(match=match, user=bob, seat=0, setup=setup)
    assert refused.value.code == "bad_setup" and refused.value.status == 403


@pytest.mark.django_db(transaction=True)
def test_one_new_name_saved_six_times_at_once_is_one_setup_and_every_save_is_answered(client_for, alice):
    g, stock = a_group()
    data = {"config": {"pack": "original-v1", "galleons": 50}, "actions": [g, stock]}
    apis = [client_for(alice) for _ in range(6)]

    def save(i):
        apis[i].raise_request_exception = False
        body = {"game": "wizarding-duels", "name": "Lanterns", "data": data}
        return apis[i].post("/api/setups/", body, format="json").status_code

    answers = at_once(6, save)
    # A row lock on a name not yet saved locked nothing: the saves after the first hit the unique name.
    assert sorted(answers) == [200] * 5 + [201], answers
    assert list(SavedSetup.objects.values_list("name", flat=True)) == ["Lanterns"]


@pytest.mark.django_db(transaction=True)
def test_new_names_saved_at_once_never_take_a_player_past_fifty_setups(client_for, alice):
    from matches.games.services import MAX_SETUPS_PER_GAME

    g, stock = a_group()
    data = {"config": {"pack": "original-v1", "galleons": 50}, "actions": [g, stock]}
    SavedSetup.objects.bulk_create(
        SavedSetup(user=alice, game="wizarding-duels", name=f"S{i}", data=data) for i in range(MAX_SETUPS_PER_GAME - 1)
    )

    apis = [client_for(alice) for _ in range(6)]

    def save(i):
        apis[i].raise_request_exception = False
        response = apis[i].post(
            "/api/setups/", {"game": "wizarding-duels", "name": f"New {i}", "data": data}, format="json"
        )
        return response.status_code, response.json().get("code")

    answers = at_once(6, save)
    assert sorted(answers, key=str) == [(201, None)] + [(400, "too_many_setups")] * 5, answers
    assert SavedSetup.objects.filter(user=alice).count() == MAX_SETUPS_PER_GAME
