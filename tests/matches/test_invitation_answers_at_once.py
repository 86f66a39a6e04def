"""An invitation accepted while its inviter cancels it, both sent at the same moment (PostgreSQL).

Each answer holds the invitation's row lock: whichever comes second finds it closed (409
``invitation_closed``) and changes nothing, so an invitation is never both cancelled and started.
"""

from __future__ import annotations

import pytest

from matches.invitations.models import Invitation
from matches.models import Match

from .helpers import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_acceptance_and_a_cancel_sent_together_either_start_the_match_or_seat_nobody(client_for, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    for _ in range(4):
        sent = client_for(alice).post(
            "/api/matches/",
            {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}]},
            format="json",
        )
        assert sent.status_code == 202, sent.json()
        invitation_id = sent.json()["id"]

        def answer(i, invitation_id=invitation_id):
            user, verb = (bob, "accept") if i == 0 else (alice, "cancel")
            response = client_for(user).post(f"/api/invitations/{invitation_id}/{verb}/", format="json")
            return verb, response.status_code, response.json().get("code")

        answers = dict((verb, (status, code)) for verb, status, code in at_once(2, answer))
        invitation = Invitation.objects.get(pk=invitation_id)
        started = Match.objects.filter(origin__invitation=invitation_id)
        if invitation.status == Invitation.Status.ACCEPTED:
            assert answers == {"accept": (200, None), "cancel": (409, "invitation_closed")}, answers
            assert started.count() == 1 and invitation.match_id == started.get().id
        else:
            assert invitation.status == Invitation.Status.CANCELLED
            assert answers == {"accept": (409, "invitation_closed"), "cancel": (200, None)}, answers
            assert not started.exists() and invitation.match_id is None
