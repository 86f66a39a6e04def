from django.http import Http404
from django.shortcuts import redirect, render

from matches import selectors as match_selectors
from matches.services import MatchError, SeatSpec

from .drafts import selectors, services
from .drafts.models import Draft
from .forms import NewDraftForm


def draft_list(request):
    form = None
    if request.user.is_authenticated:
        form = NewDraftForm(request.POST or None, user=request.user)
        if request.method == "POST" and form.is_valid():
            me, them = request.user, form.cleaned_data["opponent"]
            coaches = [me, them] if form.cleaned_data["first"] == "me" else [them, me]
            try:
                draft = services.draft_create(
                    seats=[SeatSpec(user=c) for c in coaches], created_by=request.user,
                    config={"format": form.cleaned_data["format"]},
                    clock_seconds=form.cleaned_data["clock_seconds"],
                )
            except MatchError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("draft-room", draft_id=draft.draft_match_id)
    drafts = Draft.objects.select_related("draft_match", "match").prefetch_related("draft_match__seats__user")[:50]
    return render(request, "league/draft_list.html", {"drafts": drafts, "form": form})


def draft_room(request, draft_id):
    draft = selectors.draft_get(draft_match_id=draft_id)
    if draft is None:
        raise Http404("No such draft.")
    match = draft.draft_match
    seat = match_selectors.viewer_seat(match=match, user=request.user)
    return render(request, "league/draft_room.html", {
        "draft": draft, "match": match, "seat": seat,
        "summary": match_selectors.match_summary(match=match, seat=seat),
    })
