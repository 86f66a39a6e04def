from django import forms
from django.contrib.auth import get_user_model

from matches.forms import CreateOnceForm


class NewDraftForm(CreateOnceForm):
    format = forms.ChoiceField(
        choices=[("schoolyard", "Schoolyard (pick from a pool of ten)"), ("basic", "Basic (deal five each)")]
    )
    opponent = forms.CharField(max_length=150, help_text="The other coach's username")
    first = forms.ChoiceField(
        choices=[("me", "I am player 1"), ("them", "They are player 1")],
        label="Player 1",
        help_text="Player 2 may take or pass the first pick.",
    )
    clock_seconds = forms.IntegerField(min_value=5, max_value=3600, initial=60, label="Pick clock (seconds)")

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_opponent(self):
        name = self.cleaned_data["opponent"].strip()
        opponent = get_user_model().objects.filter(username=name).first()
        if opponent is None:
            raise forms.ValidationError(f"There is no coach called '{name}'.")
        if opponent == self.user:
            raise forms.ValidationError("Draft against someone else.")
        return opponent
