"""Server-rendered pages. The live and replay pages draw themselves from the API and the socket."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm
from django.db import IntegrityError, transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from . import selectors, services
from .forms import MatchFilterForm, NewMatchForm
from .invitations.models import Invitation
from .invitations.services import match_open
from .models import Match
from .throttles import expensive_page


def home(request):
    live = Match.objects.filter(status=Match.Status.LIVE).prefetch_related("seats__user")[:30]
    # The match list: filtered and paged by query parameters (?game=&status=&player=&page=).
    filters = MatchFilterForm(request.GET or None)
    chosen = filters.cleaned_data if filters.is_valid() else {}
    page = chosen.get("page") or 1
    matches, has_next = selectors.match_list(
        game=chosen.get("game", ""), status=chosen.get("status", ""), player=chosen.get("player", "").strip(), page=page
    )
    query = {k: v for k, v in chosen.items() if v and k != "page"}
    form = NewMatchForm(user=request.user) if request.user.is_authenticated else None
    return render(
        request,
        "matches/home.html",
        {
            "live": live,
            "matches": matches,
            "filters": filters,
            "form": form,
            "page": page,
            "prev_query": urlencode({**query, "page": page - 1}) if page > 1 else None,
            "next_query": urlencode({**query, "page": page + 1}) if has_next else None,
        },
    )


@login_required
def match_new(request):
    form = NewMatchForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            opened, _ = match_open(
                game=data["game"],
                seats=form.seat_specs(),
                created_by=request.user,
                mode=data["mode"],
                config=data["config"],
                time_control=data["time_control"],
                setup=data["setup"],
                event_id=data["event_id"],
            )
        except services.MatchError as exc:
            form.refuse(exc)
        else:
            if isinstance(opened, Invitation):
                # Another person is seated only once they accept: the inviter waits on the invitation's page.
                return redirect("invitation", invitation_id=opened.id)
            return redirect("match-live", match_id=opened.id)
    return render(request, "matches/new.html", {"form": form})


def _match(match_id) -> Match:
    match = selectors.match_get(match_id=match_id)
    if match is None:
        raise Http404("No such match.")
    return match


def match_live(request, match_id):
    match = _match(match_id)
    seat = selectors.viewer_seat(match=match, user=request.user)
    summary = selectors.match_summary(match=match, seat=seat)
    # Resign is offered only to a seat still in the game, in the page as served too (not only once
    # the socket's first update came): a knocked-out wizard's resignation is refused.
    in_game = any(s["seat"] == seat and s["in_game"] for s in summary["seats"])
    return render(
        request,
        "matches/live.html",
        {"match": match, "seat": seat, "seat_in_game": in_game, "summary": summary},
    )


@expensive_page
def match_replay(request, match_id):
    match = _match(match_id)
    if match.status != Match.Status.FINISHED:
        messages.info(request, "The replay opens when the match is over; here it is live.")
        return redirect("match-live", match_id=match.id)
    from .checkpoints.selectors import checkpoint_covering

    leaf, checkpoint = checkpoint_covering(stream_id=match.stream_id, seq=match.state_seq)
    return render(
        request,
        "matches/replay.html",
        {
            "match": match,
            "summary": selectors.match_summary(match=match, seat=None),
            "leaf": leaf,
            "checkpoint": checkpoint,
        },
    )


class SignupForm(UserCreationForm):
    """Django's form with one change: a taken username gets the same neutral sentence as any other
    unusable one, not "already exists" (which made the form a probe for accounts)."""

    UNAVAILABLE = "This username is not available; choose another."

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The model's own unique check runs after clean_username: a same-case sign-up saved
        # between the two (one at once with this one) got its "already exists" here.
        self.fields["username"].error_messages["unique"] = self.UNAVAILABLE

    def clean_username(self):
        username = self.cleaned_data.get("username")
        if username and self._meta.model.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(self.UNAVAILABLE, code="unavailable")
        return username


def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Another sign-up took the name (in some case) after clean_username looked: the unique
            # index on UPPER(username) (migration 0013) refused this one.
            form.add_error("username", forms.ValidationError(SignupForm.UNAVAILABLE, code="unavailable"))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class AccountPasswordChangeForm(PasswordChangeForm):
    """Django's form, its old password checked through ``authenticate`` as the sign-in form's is:
    django-axes then counts a wrong one against the (username, address) pair and refuses a locked
    one, so a stolen session cannot guess the password here faster than at the sign-in page."""

    def __init__(self, user, *args, request=None, **kwargs):
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self):
        old_password = self.cleaned_data["old_password"]
        checked = authenticate(self.request, username=self.user.get_username(), password=old_password)
        if checked is None or checked.pk != self.user.pk:
            raise forms.ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        return old_password


class PasswordChange(auth_views.PasswordChangeView):
    """Django's view (it keeps this session signed in with update_session_auth_hash; every other
    session of the account ends, and matches/accounts.py revokes its API token)."""

    form_class = AccountPasswordChangeForm
    success_url = reverse_lazy("account")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(
            self.request,
            "Your password is changed. You are signed out everywhere else, and your API token was "
            "replaced: update your scripts with the new one below.",
        )
        return response


@never_cache  # the page shows a credential: no browser or proxy may keep a copy
@require_http_methods(["GET", "POST"])
@login_required
def account(request):
    if request.method == "POST":
        # Rotate: the old key stops working the moment the new one exists.
        with transaction.atomic():
            # Rotations one after another: two at once (a double click) both deleted the old key,
            # then both inserted a new one for the same user, and the second hit the unique user.
            get_user_model().objects.select_for_update().get(pk=request.user.pk)
            Token.objects.filter(user=request.user).delete()
            Token.objects.create(user=request.user)
        messages.success(request, "A new API token replaced the old one; update your scripts.")
        return redirect("account")
    token, _ = Token.objects.get_or_create(user=request.user)
    expires = token.created + timedelta(days=settings.TOKEN_MAX_AGE_DAYS)
    return render(request, "matches/account.html", {"token": token.key, "expires": expires})


def annihilageddon_gallery(request):
    """Every card of Annihilageddon's original set, readable and filterable (drawn by the page script)."""
    return render(request, "games/annihilageddon_gallery.html")
