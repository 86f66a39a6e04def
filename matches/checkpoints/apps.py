from django.apps import AppConfig


class CheckpointsConfig(AppConfig):
    # The transparency log (signed checkpoints over every stream head), a Django app of its own
    # inside matches/ so it keeps its own models and migrations.
    name = "matches.checkpoints"
    label = "checkpoints"
    verbose_name = "Transparency log and signed checkpoints"

    def ready(self):
        from . import tasks

        tasks.schedule()
