from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # lazy: ready() runs once every app is loaded; these import models, which a module-level
        # import in apps.py would load before the app registry is ready.
        from ratings import receivers  # noqa: F401  listens to matches.signals.match_finished
