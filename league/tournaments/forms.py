from django import forms

from engines import registry

from .projection import FORMATS

FORMAT_LABELS = {
    "single_elimination": "Single elimination", "double_elimination": "Double elimination",
    "round_robin": "Round robin", "swiss": "Swiss", "groups_playoff": "Groups, then a playoff",
    "pods": "Free-for-all pods (3-5 players)",
}


class NewTournamentForm(forms.Form):
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField()
    format = forms.ChoiceField(choices=[(f, FORMAT_LABELS[f]) for f in FORMATS])
    cap = forms.IntegerField(required=False, min_value=2, label="Player cap")
    rounds = forms.IntegerField(required=False, min_value=1, max_value=30, label="Rounds (Swiss, pods)")
    bye_score = forms.ChoiceField(choices=[("1", "1"), ("1/2", "½"), ("0", "0")], initial="1", label="Bye worth")
    third_place = forms.BooleanField(required=False, label="Third-place match")
    bracket_reset = forms.BooleanField(required=False, initial=True, label="Grand final reset")
    check_in_required = forms.BooleanField(required=False, label="Check-in required")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(e.name, e.title) for e in registry.latest()]

    def options(self) -> dict:
        d = self.cleaned_data
        fmt = d["format"]
        options = {"check_in_required": d["check_in_required"]}
        if d.get("cap"):
            options["cap"] = d["cap"]
        if fmt in ("swiss", "pods") and d.get("rounds"):
            options["rounds"] = d["rounds"]
        if fmt == "swiss":
            options["bye_score"] = d["bye_score"]
        if fmt in ("single_elimination", "groups_playoff"):
            options["third_place"] = d["third_place"]
        if fmt == "double_elimination":
            options["bracket_reset"] = d["bracket_reset"]
        return options
