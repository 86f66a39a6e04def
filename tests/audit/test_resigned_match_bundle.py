"""A resigned match's audit bundle (``manage.py export``) verifies offline (``python -m audit
verify FILE``, no Django): a server-dealt duel, a team seat resigned by its partner (checked by the
partner ids the created event records), and a tabletop duel resigned while the resigning seat's
private draw was due. What a spectator is served of the resignation names the seat, nothing more."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from matches import services
from matches.checkpoints import keys
from matches.models import Match
from matches.verification import match_verify

from .test_bundle import offline, signing_key  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def duel(*seats, **kwargs) -> Match:
    return services.match_create(game="dueling-wizards", seats=list(seats), created_by=seats[0].user, **kwargs)


def head(match) -> int:
    return Match.objects.get(pk=match.pk).state_seq


def exported_verifies_offline(match, tmp_path):
    assert match_verify(match_id=match.pk).verified
    out = tmp_path / f"{match.pk}.json"
    call_command("export", str(match.pk), out=str(out))
    done = offline(tmp_path, "verify", str(out), "--key", keys.public_key())
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"verified: {match.stream_id} (match)" in done.stdout
    return json.loads(out.read_text())


def test_resigned_matches_export_and_verify_offline(alice, bob, carol, tmp_path):
    Seat = services.SeatSpec
    plain = duel(Seat(user=alice), Seat(user=bob))
    services.match_resign(match_id=plain.pk, user=bob, expected_seq=head(plain))
    data = exported_verifies_offline(plain, tmp_path)
    assert data["events"][-2]["type"] == "match.resigned" and data["events"][-2]["data"] == {"seat": 1}

    team = duel(Seat(user=alice, partners=(carol,)), Seat(user=bob))
    services.match_resign(match_id=team.pk, user=carol, expected_seq=head(team))
    exported_verifies_offline(team, tmp_path)


def test_a_tabletop_duel_resigned_with_a_private_draw_due_verifies_and_shows_spectators_only_the_seat(
    alice, bob, client_for, tmp_path
):
    match = duel(services.SeatSpec(user=alice), services.SeatSpec(user=bob), mode=Match.Mode.TABLETOP)
    services.match_record_chance(
        match_id=match.pk, user=alice, seat=0, outcome={"cards": ["R9", "PK", "X1"]}, expected_seq=head(match)
    )
    due = client_for(bob).get(f"/api/matches/{match.pk}/").json()["chance"]
    assert due["kind"] == "draw" and due["visible_to"] == [1]  # bob's own draw is due
    seq = head(match)
    services.match_resign(match_id=match.pk, user=bob, expected_seq=seq)
    events = client_for().get(f"/api/matches/{match.pk}/events/", {"after": seq}).json()["events"]
    assert [(e["type"], e["data"]) for e in events][0] == ("match.resigned", {"seat": 1})
    assert events[1]["type"] == "match.finished" and events[1]["data"]["result"]["resigned"] == 1
    log = [line["text"] for line in client_for().get(f"/api/matches/{match.pk}/log/").json()["log"]]
    assert log[-2:] == ["bob resigned.", "Match over. Winner: alice."]
    exported_verifies_offline(match, tmp_path)
