import datetime as dt
from fractions import Fraction
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms

from engines import registry
from matches.forms import CreateOnceForm

from .formats import registry as formats
from .formats.base import CUT_FORMATS
from .tiebreaks import TIEBREAKS

TIEBREAK_CHOICES = [("", "(default)")] + [(n, n.replace("_", " ")) for n in TIEBREAKS]

FORMAT_LABELS = {f.name: f.label for f in formats.all_formats()}


class NewTournamentForm(CreateOnceForm):
    # One id per form shown (CreateOnceForm): a second submit of the same form (a double click, a
    # resend after a lost answer) finds the tournament the first made instead of making another.
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField()
    format = forms.ChoiceField(choices=list(FORMAT_LABELS.items()))
    cap = forms.IntegerField(required=False, min_value=2, label="Player cap")
    rounds = forms.IntegerField(required=False, min_value=1, max_value=30, label="Rounds (Swiss, pods)")
    bye_score = forms.ChoiceField(choices=[("1", "1"), ("1/2", "½"), ("0", "0")], initial="1", label="Bye worth")
    # A bye a player asks for ahead (services/edits.py): nothing unless the organiser says otherwise.
    requested_bye_points = forms.ChoiceField(
        choices=[("0", "0"), ("1/2", "½"), ("1", "1")],
        initial="0",
        required=False,
        label="Requested bye worth (Swiss, pods)",
    )
    best_of = forms.TypedChoiceField(
        choices=[(1, "One game"), (3, "Best of three"), (5, "Best of five")],
        coerce=int,
        initial=1,
        required=False,
        label="Match length",
    )
    scoring = forms.ChoiceField(
        choices=[
            ("match", "Match points 1 / ½ / 0"),
            ("3-1-0", "Match points 3 / 1 / 0"),
            ("games", "Battle points (games won)"),
        ],
        initial="match",
        required=False,
        label="Scoring",
    )
    seat_balance = forms.ChoiceField(
        choices=[
            ("balanced", "Balanced (seat wishes weigh against score groups)"),
            ("strict", "Strict (FIDE colour limits: never three in a row or two apart)"),
        ],
        initial="balanced",
        required=False,
        label="Seats (Swiss)",
    )
    pod_size = forms.IntegerField(
        required=False, min_value=3, max_value=5, label="Pod size (at most what the game seats)"
    )
    round_minutes = forms.IntegerField(
        required=False, min_value=1, max_value=600, initial=50, label="Round timer (minutes)"
    )
    third_place = forms.BooleanField(required=False, label="Third-place match")
    cut = forms.IntegerField(
        required=False, min_value=2, max_value=256, label="Cut to a playoff: top (Swiss, round robin, pods)"
    )
    cut_format = forms.ChoiceField(
        choices=[(name, formats.get(name).label) for name in CUT_FORMATS],
        initial=CUT_FORMATS[0],
        required=False,
        label="Playoff bracket (cut, groups)",
    )
    cut_seeding = forms.ChoiceField(
        choices=[("standings", "By final standing"), ("rating", "By rating")],
        initial="standings",
        required=False,
        label="Playoff seeds (cut, groups)",
    )
    bracket_reset = forms.BooleanField(required=False, initial=True, label="Grand final reset")
    check_in_required = forms.BooleanField(required=False, label="Check-in required")
    check_in_opens = forms.DateTimeField(
        required=False, label="Check-in opens", widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    check_in_closes = forms.DateTimeField(
        required=False, label="Check-in closes", widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    # The organiser's time zone (filled in by static/js/pages/tournament-list.js): the check-in
    # times are typed in it, and stored as UTC instants.
    time_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    seeding = forms.ChoiceField(
        choices=[
            ("registration", "In order of registration"),
            ("rating", "By rating"),
            ("manual", "By hand (set on the tournament page)"),
        ],
        initial="registration",
    )
    tiebreak_1 = forms.ChoiceField(choices=TIEBREAK_CHOICES, required=False, label="Tie-break 1")
    tiebreak_2 = forms.ChoiceField(choices=TIEBREAK_CHOICES, required=False, label="Tie-break 2")
    tiebreak_3 = forms.ChoiceField(choices=TIEBREAK_CHOICES, required=False, label="Tie-break 3")
    tiebreak_4 = forms.ChoiceField(choices=TIEBREAK_CHOICES, required=False, label="Tie-break 4")
    forbidden_pairs = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), label="Never pair (Swiss): two usernames a line"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(e.name, e.title) for e in registry.latest()]

    def clean(self):
        d = super().clean()
        try:
            zone = ZoneInfo(d.get("time_zone") or "UTC")
        except (ZoneInfoNotFoundError, ValueError):
            zone = ZoneInfo("UTC")
        for key in ("check_in_opens", "check_in_closes"):
            if d.get(key):
                # Django read the typed wall-clock time as UTC; it was the organiser's.
                try:
                    d[key] = d[key].replace(tzinfo=None).replace(tzinfo=zone).astimezone(dt.UTC)
                except OverflowError:
                    # At the calendar's edge (year 1 east of UTC, 9999 west of it) UTC has no such day.
                    self.add_error(key, "Choose a real date: this one falls outside the years 1 to 9999 in UTC.")
        return d

    def options(self) -> dict:
        d = self.cleaned_data
        fmt = d["format"]
        options = {"check_in_required": d["check_in_required"], "seeding": d["seeding"]}
        for key in ("check_in_opens", "check_in_closes"):
            if d.get(key):
                options[key] = d[key].isoformat()
        # Only the chosen format's options are sent: each format names its own (formats/).
        keys = formats.get(fmt).option_keys
        tiebreaks = [d[f"tiebreak_{i}"] for i in range(1, 5) if d.get(f"tiebreak_{i}")]
        if tiebreaks and "tiebreaks" in keys:
            # Chosen in order; a repeat adds nothing, so it is dropped rather than refused.
            options["tiebreaks"] = list(dict.fromkeys(tiebreaks))
        if "forbidden_pairs" in keys and d.get("forbidden_pairs"):
            options["forbidden_pairs"] = [
                line.replace(",", " ").split() for line in d["forbidden_pairs"].splitlines() if line.strip()
            ]
        if d.get("round_minutes"):
            options["round_minutes"] = d["round_minutes"]
        if d.get("cap"):
            options["cap"] = d["cap"]
        for key in ("rounds", "pod_size"):
            if key in keys and d.get(key):
                options[key] = d[key]
        if "requested_bye_points" in keys and d.get("requested_bye_points"):
            options["requested_bye_points"] = d["requested_bye_points"]
        for key in ("bye_score", "third_place", "bracket_reset"):
            if key in keys:
                options[key] = d[key]
        if "cut" in keys and d.get("cut"):
            # A second stage: the best ``cut`` go on to a bracket (formats/base.py, clean_cut).
            options["cut"] = d["cut"]
        # A cut given, or a second stage always played (groups): its bracket and seeding rule.
        if "cut_format" in keys and ("cut" in options or "cut" not in keys):
            options["cut_format"] = d.get("cut_format") or CUT_FORMATS[0]
        if "cut_seeding" in keys and ("cut" in options or "cut" not in keys):
            options["cut_seeding"] = d.get("cut_seeding") or "standings"
        if "seat_balance" in keys:
            options["seat_balance"] = d["seat_balance"] or "balanced"
        if "best_of" in keys:
            options["best_of"] = d.get("best_of") or 1
        if "match_points" in keys and d.get("scoring") == "3-1-0":
            # The bye keeps its share of a win (a whole bye: 3 points).
            bye = Fraction(options.pop("bye_score", "1")) * 3
            options["match_points"] = {"win": 3, "draw": 1, "loss": 0, "bye": str(bye)}
        if "points_from" in keys and d.get("scoring") == "games":
            options["points_from"] = "games"
        return options
