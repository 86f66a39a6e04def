from django.http import Http404
from django.shortcuts import redirect, render

from matches.errors import Refusal
from matches.eventstore import EventStoreError

from . import selectors, services
from .formats import registry as formats
from .forms import FORMAT_LABELS, NewTournamentForm


def tournament_list(request):
    form = None
    if request.user.is_authenticated:
        form = NewTournamentForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                t, _ = services.tournament_create_or_get(
                    created_by=request.user,
                    name=form.cleaned_data["name"],
                    game=form.cleaned_data["game"],
                    format=form.cleaned_data["format"],
                    options=form.options(),
                    event_id=form.cleaned_data.get("event_id"),
                )
            # The tournament's (LeagueError), the command runner's (MatchError) or the event store's
            # (the form's id already made another tournament: EventIdReused).
            except (Refusal, EventStoreError) as exc:
                form.refuse(exc)
            else:
                return redirect("tournament-page", tournament_id=t.id)
    tournaments = selectors.tournament_list()
    for t in tournaments:
        t["format_label"] = FORMAT_LABELS.get(t["format"], t["format"])
    return render(request, "tournaments/list.html", {"tournaments": tournaments, "form": form})


def tournament_page(request, tournament_id):
    t = selectors.tournament_get(tournament_id=tournament_id)
    if t is None:
        raise Http404("No such tournament.")
    # The page asks the format what it offers (a TRF report), never its name.
    fmt = formats.get(t.format)
    return render(request, "tournaments/page.html", {"t": t, "fmt": fmt, "format_label": fmt.label})


def tournament_player_page(request, tournament_id, username):
    """A player's own page: next match with its report buttons, results, standing. Public
    like the tournament page; only the player (or the organiser) gets buttons that act."""
    t = selectors.tournament_get(tournament_id=tournament_id)
    if t is None:
        raise Http404("No such tournament.")
    state = selectors.tournament_state(tournament=t)
    if selectors.player_id_of(state, username) is None:
        raise Http404("No such player in this tournament.")
    return render(
        request,
        "tournaments/player.html",
        {
            "t": t,
            "player": username,
            "fmt": formats.get(t.format),
            "format_label": FORMAT_LABELS.get(t.format, t.format),
        },
    )
