from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "ladder"
    verbose_name = "Ladder, qualification and challenges"

    def ready(self) -> None:
        # lazy: ready() runs once every app is loaded; these import models, which a module-level
        # import in apps.py would load before the app registry is ready.
        from ladder import receivers  # noqa: F401  listens to uploads and finished matches
