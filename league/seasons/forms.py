"""The organiser's forms: a new season, a club's coach, a fixture ruling and closing a season.

Every form that appends to the season's stream carries the head the page showed (``expected_seq``)
and a command id (``event_id``), as the season page's Start form does. Every ruling and the close
ask for an explicit confirmation, and no outcome is preselected: a walkover names its winner and a
corrected result both scores, or nothing is sent.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from matches.forms import TIME_CONTROLS, CreateOnceForm

#: How many divisions the new-season form offers (the IWDL's 24 clubs fit four of six).
MAX_DIVISIONS = 4
OUT = "out"


class _Guarded(forms.Form):
    expected_seq = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)
    event_id = forms.UUIDField(widget=forms.HiddenInput)


class SeasonForm(CreateOnceForm):
    """Clubs go into divisions by a choice per club; a single division is one table."""

    # Required here: the page always sends the id it was shown with (CreateOnceForm.refuse renews it).
    event_id = forms.UUIDField(widget=forms.HiddenInput)
    division_names = forms.CharField(
        max_length=400,
        required=False,
        label="Division names, top first",
        help_text="Separated by commas, e.g. 'Premier, Championship'. Leave empty for 'Division 1', 'Division 2'...",
    )
    start_date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="First round")
    days_between_rounds = forms.IntegerField(min_value=1, max_value=60, initial=7, label="Days between rounds")
    double = forms.BooleanField(required=False, initial=True, label="Double round robin (home and away)")
    promote = forms.IntegerField(min_value=0, max_value=6, initial=2, label="Promoted from each lower division")
    relegate = forms.IntegerField(min_value=0, max_value=6, initial=2, label="Relegated from each upper division")
    playoff_spots = forms.IntegerField(min_value=0, max_value=6, initial=0, label="Play-off places")
    clock = forms.ChoiceField(
        required=False,
        initial="",
        label="Time control",
        choices=[(key, label) for key, (label, _) in TIME_CONTROLS.items()],
        help_text="Every fixture's match is played with this clock; a coach whose time runs out loses on time.",
    )

    def __init__(self, *args, clubs=(), placed: dict[str, int] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.clubs = list(clubs)
        choices = [(OUT, "Not in this season")] + [(str(n), f"Division {n}") for n in range(1, MAX_DIVISIONS + 1)]
        for club in self.clubs:
            self.fields[f"club_{club.slug}"] = forms.ChoiceField(
                choices=choices, label=club.name, initial=str((placed or {}).get(club.slug, 1))
            )

    def club_fields(self):
        return [(club, self[f"club_{club.slug}"]) for club in self.clubs]

    def clean(self):
        data = super().clean()
        by_number: dict[int, list] = {}
        for club in self.clubs:
            value = data.get(f"club_{club.slug}")
            if value and value != OUT:
                by_number.setdefault(int(value), []).append(club)
        chosen = [club for n in sorted(by_number) for club in by_number[n]]
        if len(chosen) < 2:
            raise forms.ValidationError("A season needs at least two clubs: put two or more in a division.")
        numbers = sorted(by_number)
        if numbers != list(range(1, len(numbers) + 1)):
            raise forms.ValidationError("Divisions are filled from the top: use Division 1 first, then 2, and so on.")
        if any(len(members) < 2 for members in by_number.values()):
            raise forms.ValidationError("Each division needs at least two clubs.")
        names = [n.strip() for n in (data.get("division_names") or "").split(",") if n.strip()]
        if names and len(names) != len(numbers):
            raise forms.ValidationError(
                f"You named {len(names)} division(s) but put clubs in {len(numbers)}: give one name per division."
            )
        if len(set(names)) != len(names):
            raise forms.ValidationError("Give each division a different name.")
        names = names or [f"Division {n}" for n in numbers]
        data["clubs"] = chosen
        data["divisions"] = (
            {name: [c.slug for c in by_number[n]] for name, n in zip(names, numbers)} if len(numbers) > 1 else None
        )
        return data


class CoachForm(forms.Form):
    username = forms.CharField(max_length=150, label="Coach's username")

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(f"There is no account called '{name}'.")
        return user


class ConfirmedRuling(_Guarded):
    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 2}), label="Reason (shown to all)")
    confirm = forms.BooleanField(
        label="I have checked this ruling; it is recorded in the season for everyone to see",
        error_messages={"required": "Tick the confirmation box to record the ruling."},
    )


class PostponeForm(ConfirmedRuling):
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="New date")
    field_order = ["date", "reason", "confirm"]  # what is ruled, why, then the confirmation


class WalkoverForm(ConfirmedRuling):
    winner = forms.ChoiceField(
        widget=forms.RadioSelect,
        label="Walkover awarded to",
        error_messages={"required": "Choose which club the walkover goes to."},
    )
    field_order = ["winner", "reason", "confirm"]

    def __init__(self, *args, fixture=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [(fixture.home.slug, fixture.home.name), (fixture.away.slug, fixture.away.name)]


class CorrectForm(ConfirmedRuling):
    home_left = forms.IntegerField(min_value=0, max_value=5, label="Home wizards left")
    away_left = forms.IntegerField(min_value=0, max_value=5, label="Away wizards left")
    field_order = ["home_left", "away_left", "reason", "confirm"]


class CloseForm(_Guarded):
    confirm = forms.BooleanField(
        label="Close the season: the final tables, promotions and relegations are recorded and cannot be undone",
        error_messages={"required": "Tick the confirmation box to close the season."},
    )


class StartForm(_Guarded):
    """The season page's Start button: its guards alone (who may press it is the service's check)."""


#: What a press without readable guards is told (it did not come from the season page as shown).
START_UNGUARDED = (
    "The fixture was not started: the Start button did not say which state of the season it was pressed on. "
    "Press Start again on the season page."
)


RULINGS = {"postpone": PostponeForm, "walkover": WalkoverForm, "correct": CorrectForm}
