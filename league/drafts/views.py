"""Draft pages: the list of drafts with the form that opens one, and the draft room."""

from django.http import Http404
from django.shortcuts import redirect, render

from matches import selectors as match_selectors
from matches.errors import Refusal
from matches.invitations.models import Invitation
from matches.services import SeatSpec

from ..seasons.models import Club
from . import selectors
from .forms import NewDraftForm
from .invitations import draft_open
from .models import Draft


def draft_list(request):
    form = None
    if request.user.is_authenticated:
        form = NewDraftForm(request.POST or None, user=request.user)
        if request.method == "POST" and form.is_valid():
            me, them = request.user, form.cleaned_data["opponent"]
            coaches = [me, them] if form.cleaned_data["first"] == "me" else [them, me]
            try:
                opened, _ = draft_open(
                    seats=[SeatSpec(user=c) for c in coaches],
                    created_by=request.user,
                    config={"format": form.cleaned_data["format"]},
                    clock_seconds=form.cleaned_data["clock_seconds"],
                    event_id=form.cleaned_data["event_id"],
                )
            except Refusal as exc:  # the draft's (LeagueError) or its match's (MatchError)
                form.refuse(exc)
            else:
                if isinstance(opened, Invitation):
                    # The other coach is seated only once they accept: wait on the invitation's page.
                    return redirect("invitation", invitation_id=opened.id)
                return redirect("draft-room", draft_id=opened.draft_match_id)
    drafts = list(
        Draft.objects.select_related("draft_match", "match").prefetch_related("draft_match__seats__user")[:50]
    )
    # A league fixture's draft is named by its clubs (bots or coaches); any other by its coaches.
    slugs = {s for d in drafts for s in (d.draft_match.origin or {}).get("fixture_clubs", [])}
    clubs = dict(Club.objects.filter(slug__in=slugs).values_list("slug", "name"))
    for d in drafts:
        seats = list(d.draft_match.seats.all())
        fixture_clubs = (d.draft_match.origin or {}).get("fixture_clubs") or []
        if len(fixture_clubs) == 2:
            d.title = " v ".join(clubs.get(s, s) for s in fixture_clubs)
            if all(not s.user_id for s in seats):
                d.title += " (bots)"
        elif all(not s.user_id for s in seats):
            d.title = " v ".join(["Bot"] + ["bot"] * (len(seats) - 1))
        else:
            d.title = " v ".join(s.label if s.user_id else "bot" for s in seats)
    return render(request, "drafts/draft_list.html", {"drafts": drafts, "form": form})


def draft_room(request, draft_id):
    draft = selectors.draft_get(draft_match_id=draft_id)
    if draft is None:
        raise Http404("No such draft.")
    match = draft.draft_match
    seat = match_selectors.viewer_seat(match=match, user=request.user)
    return render(
        request,
        "drafts/draft_room.html",
        {
            "draft": draft,
            "match": match,
            "seat": seat,
            "summary": match_selectors.match_summary(match=match, seat=seat),
        },
    )
