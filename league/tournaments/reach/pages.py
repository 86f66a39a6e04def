"""The account page's forms: the tournament-email switch, and confirming an entry the organiser
made (plain forms, back to the account page)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from matches.commands import AT_HEAD
from matches.errors import Refusal

from .. import selectors as tournament_selectors
from .. import services as tournament_services
from . import services


@require_POST
@login_required
def email_preferences(request):
    services.email_opt_out_set(user=request.user, opted_out=request.POST.get("opted_out") == "1")
    return redirect("account")


@require_POST
@login_required
def entry_confirm(request, tournament_id):
    t = tournament_selectors.tournament_get(tournament_id=tournament_id)
    if t is None:
        raise Http404("No such tournament.")
    try:
        # At the head: a confirmation means the same whatever the tournament did since the page was drawn.
        tournament_services.tournament_confirm_entry(tournament=t, user=request.user, expected_seq=AT_HEAD)
    except Refusal as exc:
        messages.error(request, exc.message)
    else:
        messages.info(request, f"Your entry in {t.name} is confirmed: you will get its emails.")
    return redirect("account")
