"""The invitation pages: one invitation (answer it, or wait for the answers), and the answers' POSTs."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from matches.errors import Refusal

from . import selectors, services

DONE = {"decline": "You declined the invitation.", "cancel": "You cancelled the invitation."}


@login_required
def invitation_page(request, invitation_id):
    invitation = selectors.invitation_get(invitation_id=invitation_id, user=request.user)
    if invitation is None:
        raise Http404("No such invitation.")
    return render(
        request,
        "matches/invitations/invitation.html",
        {
            "invitation": selectors.invitation_summary(invitation=invitation, user=request.user),
            "expires_at": invitation.expires_at,
        },
    )


@require_POST
@login_required
def invitation_answer(request, invitation_id, verb):
    answer = services.ANSWERS.get(verb)
    if answer is None:
        raise Http404("No such answer.")
    try:
        invitation = answer(invitation_id=invitation_id, user=request.user)
    except Refusal as exc:  # a draft invitation's start may be refused by league (LeagueError)
        if exc.status == 404:
            raise Http404(exc.message) from None
        messages.error(request, exc.message)
        return redirect("invitation", invitation_id=invitation_id)
    if verb in DONE:
        messages.info(request, DONE[verb])
        return redirect("home")
    if invitation.match_id:
        # Everyone accepted: this answer started it; into the match (or draft room) at once.
        return redirect(selectors.invitation_summary(invitation=invitation, user=request.user)["url"])
    return redirect("invitation", invitation_id=invitation_id)
