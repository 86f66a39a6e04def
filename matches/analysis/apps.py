from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    # Cached match analyses and what-if sandboxes: a Django app of its own inside matches/ so it
    # keeps its own models and migrations.
    name = "matches.analysis"
    label = "analysis"
    verbose_name = "Replay analysis: odds, luck, fairness, what-if"
