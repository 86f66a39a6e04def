from __future__ import annotations

import uuid

from django import forms
from django.contrib.auth import get_user_model

from engines import registry

from .errors import Refusal
from .eventstore import EventIdReused, EventStoreError
from .models import Match

#: The time controls offered on the form (the API takes any within audit.clocks.LIMITS).
TIME_CONTROLS = {
    "": ("No clock", {}),
    "fischer-5-3": ("5 minutes + 3 s a move", {"kind": "fischer", "base": 300, "increment": 3}),
    "fischer-15-10": ("15 minutes + 10 s a move", {"kind": "fischer", "base": 900, "increment": 10}),
    "days-1": ("1 day a move", {"kind": "correspondence", "days_per_move": 1}),
    "days-3": ("3 days a move", {"kind": "correspondence", "days_per_move": 3}),
}


#: What a person is told when a form's event_id already made something else (they went back to
#: a form they had sent and changed it): the service's sentence speaks to a script's author.
EVENT_ID_REUSED = "This form was already sent once, for something else. It is ready again: send it to go ahead."


class CreateOnceForm(forms.Form):
    """A page's form that creates something (a match, a draft, an invitation). One id per form
    shown, passed to the service as the create's ``event_id``: a second submit of the same form (a
    double click, a resend after a lost answer) finds what the first made instead of making another."""

    event_id = forms.UUIDField(required=False, initial=uuid.uuid4, widget=forms.HiddenInput)

    def refuse(self, exc: Refusal | EventStoreError) -> None:
        """Show the service's refusal. Nothing was made under this form's id (or, event_id_reused,
        something else was), so the form shown again carries a new one: sending it is a new create."""
        self.add_error(None, EVENT_ID_REUSED if exc.code == EventIdReused.code else exc.message)
        self.data = self.data.copy()
        self.data[self.add_prefix("event_id")] = str(uuid.uuid4())


class NewMatchForm(CreateOnceForm):
    game = forms.ChoiceField()
    opponent = forms.CharField(
        required=False,
        max_length=800,
        label="Opponents",
        help_text="Other players' usernames, separated by commas. Leave empty to play the bot.",
    )
    seats = forms.IntegerField(
        required=False,
        min_value=1,
        label="Players",
        help_text="How many play, you included; the seats nobody is named for are bots. "
        "Empty: you and one opponent or bot.",
    )
    bot = forms.ChoiceField(
        required=False,
        help_text="Which bot plays when there is no opponent.",
        choices=[("", "the game's best bot")],
    )
    mode = forms.ChoiceField(choices=Match.Mode.choices, initial=Match.Mode.SERVER)
    clock = forms.ChoiceField(
        required=False,
        initial="",
        label="Time control",
        choices=[(key, label) for key, (label, _) in TIME_CONTROLS.items()],
        help_text="A player whose time runs out loses on time.",
    )
    setup = forms.ChoiceField(
        required=False,
        label="Saved setup",
        choices=[("", "none (choose in the match)")],
        help_text="A Group you saved for this game: the match takes its pack and budget, and plays it for you.",
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        # What each engine declares: the games people start here (drafts start from leagues and
        # tournaments) and every bot any of them has.
        games = registry.playable()
        self.fields["game"].choices = [(e.name, e.title) for e in games]
        bots = sorted({b for e in games for b in e.bots})
        # The seat range is each engine's own (checked in clean); the field only bounds all games.
        self.fields["seats"].widget.attrs.update(min=1, max=max((e.max_seats for e in games), default=2))
        self.fields["bot"].choices = [("", "the game's best bot")] + [(b, b) for b in bots]
        from .games.selectors import setup_list

        titles = {e.name: e.title for e in games}
        self.saved = {str(s.pk): s for s in setup_list(user=user) if s.game in titles}
        self.fields["setup"].choices = [("", "none (choose in the match)")] + [
            (pk, f"{titles[s.game]}: {s.name}") for pk, s in self.saved.items()
        ]

    def clean_opponent(self):
        """The people named, in the order given (their seats follow yours): a list, maybe empty."""
        names = [n.strip() for n in self.cleaned_data["opponent"].split(",") if n.strip()]
        people = []
        for name in names:
            opponent = get_user_model().objects.filter(username=name).first()
            if opponent is None:
                raise forms.ValidationError(f"There is no player called '{name}'.")
            if opponent == self.user:
                raise forms.ValidationError("Pick someone else, or leave it empty to play the bot.")
            if opponent in people:
                raise forms.ValidationError(f"'{name}' is named twice.")
            people.append(opponent)
        return people

    def seat_specs(self):
        """The seats of a valid form: you, the people named, then bots up to the seat count."""
        from .services import SeatSpec

        data = self.cleaned_data
        people = data["opponent"]
        return (
            [SeatSpec(user=self.user)]
            + [SeatSpec(user=u) for u in people]
            + [SeatSpec(bot=data["bot"]) for _ in range(data["seats"] - 1 - len(people))]
        )

    def clean(self):
        data = super().clean()
        engine = registry.get(data["game"]) if data.get("game") else None
        people = data.get("opponent") or []
        # Seats come from the engine's declared range: nothing here knows any game by name.
        seats = data.get("seats") or max(2, 1 + len(people))
        data["seats"] = seats
        if engine and not engine.min_seats <= seats <= engine.max_seats:
            self.add_error("seats", f"{engine.title} is played by {engine.min_seats} to {engine.max_seats} players.")
        elif seats < 1 + len(people):
            self.add_error("seats", f"You and the players you named need {1 + len(people)} seats.")
        if engine and seats > 1 + len(people):
            bot = data.get("bot") or engine.best_bot
            if bot not in engine.bots:
                self.add_error("bot", f"{engine.title} has no {bot} bot; it has {', '.join(engine.bots)}.")
            data["bot"] = bot
        data["time_control"] = TIME_CONTROLS.get(data.get("clock") or "", ("", {}))[1]
        setup = self.saved.get(data.get("setup") or "")
        if setup is not None and engine is not None and setup.game != engine.name:
            self.add_error("setup", f"That setup is for another game, not {engine.title}.")
        data["setup"] = setup
        data["config"] = dict((setup.data or {}).get("config") or {}) if setup is not None else None
        if data.get("mode") == Match.Mode.TABLETOP and not data.get("opponent"):
            raise forms.ValidationError("A tabletop match needs a second person at the table.")
        return data


class MatchFilterForm(forms.Form):
    """The match list's filters and page (query parameters): each bounded, an unknown value refused."""

    game = forms.ChoiceField(required=False, label="Game")
    status = forms.ChoiceField(required=False, label="Status", choices=[("", "any")] + list(Match.Status.choices))
    player = forms.CharField(
        required=False, label="Player", max_length=150, widget=forms.TextInput(attrs={"placeholder": "username"})
    )
    page = forms.IntegerField(required=False, min_value=1, max_value=200, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", "any")] + [(e.name, e.title) for e in registry.latest()]
