"""The tournament verifier checks whose hand each fact is in (docs/AUDIT.md 8.1).

A forger with write access to the store (docs/AUDIT.md's threat model) rewrites one fact's actor,
recomputes the chain and rebuilds the cached projection from the rewritten stream, so the chain,
the fold and the cache all agree. Only the hand is wrong: a fact no service would write in it. The
verifier disputes it at that fact's seq, with a sentence saying whose it should be. Where the
organiser or staff may act, the stream cannot tell staff from any other person (no fact records
who is staff, and today's rows are not the day's): such a fact is checked as a person's."""

from __future__ import annotations

import pytest

from league.tournaments import projection, services
from league.tournaments.timer_services import tournament_timer_start
from league.tournaments.verification import HANDS_CHECKED, verify_tournament
from matches.commands import AT_HEAD
from matches.models import Event, Stream
from tests.audit.helpers import alter_event, rehash_stream

from .helpers import field, people, pid, state
from .test_tournament_audit import _platform_result

pytestmark = pytest.mark.django_db


def verdict(t):
    return verify_tournament(Stream.objects.get(pk=t.stream_id))


def forge(t, event: Event, actor: str, **data) -> int:
    """``event`` rewritten into ``actor``'s hand (and ``data`` changed), the chain recomputed and
    the cached projection rebuilt from the rewritten stream: everything agrees but the hand."""
    alter_event(event, actor=actor, data={**event.data, **data})
    rehash_stream(t.stream_id, event.seq)
    services.projection_rebuild(tournament=t)
    return event.seq


def fact(t, type: str, **data) -> Event:
    """The stream's first fact of ``type`` whose data holds ``data``."""
    return next(
        e
        for e in Event.objects.filter(stream_id=t.stream_id, type=type).order_by("seq")
        if all(e.data.get(k) == v for k, v in data.items())
    )


@pytest.fixture
def day(alice):
    """A Swiss of four with check-in and a waiting list, made through the services: an entry by the
    organiser that its player confirms, a withdrawal that promotes the waiting player, a check-in at
    the desk and one undone, seeds, the start, the round timer, a result reported and confirmed by
    the players, a pairing's match started by a player and ruled on by a staff user, a requested bye
    and the next round."""
    p1, p2, p3, p4, p5 = field(5)
    [staffer] = people("staffer", staff=True)
    t = services.tournament_create(
        created_by=alice,
        name="Actors",
        game="dueling-wizards",
        format="swiss",
        options={"rounds": 2, "cap": 4, "check_in_required": True},
    )
    run = {"tournament": t, "expected_seq": AT_HEAD}
    services.tournament_register(user=p1, by=alice, **run)
    for p in (p2, p3, p4, p5):
        services.tournament_register(user=p, **run)
    services.tournament_withdraw(user=p4, **run)
    services.tournament_confirm_entry(user=p1, **run)
    services.tournament_check_in(user=p1, **run)
    services.tournament_check_in(user=p2, by=alice, **run)
    services.tournament_check_in(user=p3, **run)
    services.tournament_check_in_undo(user=p3, by=alice, reason="ticked the wrong name", **run)
    services.tournament_check_in(user=p3, **run)
    services.tournament_check_in(user=p5, **run)
    services.tournament_seed(by=alice, method="manual", order=[pid(p) for p in (p5, p3, p2, p1)], **run)
    services.tournament_start(by=alice, **run)
    tournament_timer_start(by=alice, **run)
    users = {pid(p): p for p in (p1, p2, p3, p5)}
    first, second = (state(t)["pairings"][key] for key in state(t)["rounds"][0]["pairings"])
    a, b = (users[p] for p in first["players"])
    services.tournament_report(pairing=first["id"], user=a, result={"winner": pid(a)}, **run)
    services.tournament_confirm(pairing=first["id"], user=b, **run)
    c, d = (users[p] for p in second["players"])
    services.tournament_match_create(pairing=second["id"], by=c, **run)
    services.tournament_rule(pairing=second["id"], by=staffer, result={"winner": pid(d)}, reason="agreed", **run)
    services.tournament_bye_request(user=p2, round=2, **run)
    services.tournament_pair_next(by=alice, **run)
    return t, {"p1": p1, "p2": p2, "p3": p3, "p4": p4, "p5": p5, "staffer": staffer}, (first, second)


def test_every_fact_the_fold_knows_has_a_rule_for_its_hand():
    assert set(projection.EVENT_TYPES) == HANDS_CHECKED


def test_a_tournament_day_made_through_the_services_verifies(day):
    t, _, _ = day
    kinds = set(Event.objects.filter(stream_id=t.stream_id).values_list("type", flat=True))
    assert {"player.entry_confirmed", "player.promoted", "player.check_in_undone", "result.ruled"} <= kinds
    found = verdict(t)
    assert found.ok, found.reason


def test_an_entry_confirmed_in_the_organisers_hand_is_disputed(day, alice):
    """The attack the rule is for: the organiser's entry of p1 confirmed in the organiser's hand, so
    p1 never confirmed it, yet the tournament emails them."""
    t, who, _ = day
    seq = forge(t, fact(t, "player.entry_confirmed"), f"user:{alice.pk}")
    found = verdict(t)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == (
        f"An entry is confirmed only by its player ({pid(who['p1'])}), but this one is by user:{alice.pk}."
    )


def test_a_ruling_by_a_staff_user_demoted_since_still_verifies(day):
    """Staff act as the organiser, and no fact records who is staff: a ruling made honestly by a
    staff user must not turn disputed the day that user loses the role (or the account goes)."""
    t, who, _ = day
    who["staffer"].is_staff = False
    who["staffer"].save(update_fields=["is_staff"])
    found = verdict(t)
    assert found.ok, found.reason
    who["staffer"].delete()
    found = verdict(t)
    assert found.ok, found.reason


def test_a_ruling_in_the_platforms_hand_is_disputed(day):
    t, _, _ = day
    seq = forge(t, fact(t, "result.ruled"), "system")
    found = verdict(t)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == "A ruling is the organiser's (or staff's) to make, but this one is by system."


def test_a_round_paired_by_the_platform_is_disputed(day):
    t, _, _ = day
    seq = forge(t, fact(t, "round.paired", round=2), "system")
    found = verdict(t)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == "A round's pairing is the organiser's (or staff's) to make, but this one is by system."


def test_a_registration_in_a_bots_hand_is_disputed(day):
    # Another person's hand cannot be told from staff's by the stream (see the ruling above).
    t, who, _ = day
    seq = forge(t, fact(t, "player.registered", player=pid(who["p2"])), "bot:random")
    found = verdict(t)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == "A registration is made by its player or the organiser, but this one is by bot:random."


def test_a_desk_check_in_in_another_hand_than_the_one_it_names_is_disputed(day, alice):
    t, who, _ = day
    seq = forge(t, fact(t, "player.checked_in", player=pid(who["p2"])), f"user:{who['p2'].pk}")
    found = verdict(t)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == f"The fact says user {alice.pk} made it, but it is by user:{who['p2'].pk}."


def test_a_promotion_in_another_hand_than_the_withdrawal_that_made_it_is_disputed(day, alice):
    t, _, _ = day
    seq = forge(t, fact(t, "player.promoted"), f"user:{alice.pk}")
    found = verdict(t)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == (
        f"A promotion from the waiting list comes with a withdrawal, in its hand, but this one is by user:{alice.pk}."
    )


def test_a_result_report_in_the_organisers_hand_is_disputed(day, alice):
    t, _, (first, _) = day
    reporter = fact(t, "result.reported").data["by"]
    seq = forge(t, fact(t, "result.reported"), f"user:{alice.pk}")
    found = verdict(t)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == f"A result report names player {reporter}, but is by user:{alice.pk}."


def test_a_result_confirmed_by_someone_outside_the_pairing_is_disputed(day):
    """Hand and ``by`` rewritten together: the player named is not one of the pairing's."""
    t, _, (first, second) = day
    outsider = second["players"][0]
    seq = forge(t, fact(t, "result.confirmed"), f"user:{outsider}", by=outsider)
    found = verdict(t)
    assert (found.ok, found.seq) == (False, seq)
    assert (
        found.reason
        == f"A result confirmation is made by one of the pairing's players, but this one is by user:{outsider}."
    )


def test_a_pairings_match_started_by_the_platform_is_disputed(day):
    t, _, _ = day
    seq = forge(t, fact(t, "match.created"), "system")
    found = verdict(t)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == "A pairing's match is started by its players or the organiser, but this one is by system."


def test_a_creation_in_another_hand_than_its_organisers_is_disputed(day, alice, bob):
    t, _, _ = day
    seq = forge(t, fact(t, "tournament.created"), f"user:{bob.pk}")
    found = verdict(t)
    assert (found.ok, found.seq) == (False, 1)
    assert found.reason == f"The creation names organiser {alice.pk}, but is by user:{bob.pk}."
    assert seq == 1


def test_a_result_taken_from_a_match_in_the_organisers_hand_is_disputed(alice, django_capture_on_commit_callbacks):
    t, _, _ = _platform_result(alice, django_capture_on_commit_callbacks)
    assert verdict(t).ok
    seq = forge(t, fact(t, "result.verified"), f"user:{alice.pk}")
    found = verdict(t)
    assert (found.ok, found.seq) == (False, seq)
    assert (
        found.reason == f"A result taken from a match is the platform's to record, but this one is by user:{alice.pk}."
    )
