"""A Wizarding Duels content pack is named by its id in a config anyone may send (a Group check needs
no account). The id names one of the engine's packs and is never a path: any other id is refused
alike, so nothing on the machine is opened and a refusal tells nothing about which files exist."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from engines.base import InvalidConfig
from engines.wizarding_duels import content
from matches.models import Match

CHECK = "/api/games/wizarding-duels/groups/check/"
ELSEWHERE = Path(settings.BASE_DIR) / "league" / "data" / "iwdl"  # a .json file that exists


def ids_that_are_not_pack_names():
    return {
        "a relative path out of the packs": "../../../league/data/iwdl",
        "an absolute path": str(ELSEWHERE),
        "a relative path to a real pack": "../packs/original-v1",
        "a name too long for a file": "x" * 300,
        "a file beside the packs": "schema",
        "a file that does not exist": "../../../no/such/file",
    }


@pytest.mark.parametrize("name", sorted(ids_that_are_not_pack_names()))
def test_an_id_that_is_not_a_packs_name_is_unknown_and_opens_nothing(name, monkeypatch):
    assert (ELSEWHERE.parent / "iwdl.json").is_file()
    opened = []
    monkeypatch.setattr(Path, "read_bytes", lambda self: opened.append(self) or b"{}")
    with pytest.raises(InvalidConfig) as refused:
        content.load(ids_that_are_not_pack_names()[name])
    assert refused.value.code == "unknown_pack" and opened == []
    assert len(refused.value.message) < 120


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(ids_that_are_not_pack_names()))
def test_an_anonymous_group_check_naming_a_path_gets_the_same_refusal_as_a_made_up_name(name, client_for):
    client = client_for()
    client.raise_request_exception = False
    answers = [
        client.post(CHECK, {"config": {"pack": pack}, "group": {"type": "group"}}, format="json")
        for pack in (ids_that_are_not_pack_names()[name], "no-such-pack")
    ]
    assert [r.status_code for r in answers] == [400, 400]
    assert [r.json()["code"] for r in answers] == ["unknown_pack", "unknown_pack"]


@pytest.mark.django_db
def test_a_match_naming_a_real_pack_by_a_path_is_refused_and_writes_nothing(alice, client_for):
    r = client_for(alice).post(
        "/api/matches/",
        {
            "game": "wizarding-duels",
            "seats": [{"username": "alice"}, {"bot": "random"}],
            "config": {"pack": "../packs/original-v1"},
        },
        format="json",
    )
    assert r.status_code == 400 and r.json()["code"] == "unknown_pack"
    assert Match.objects.count() == 0
