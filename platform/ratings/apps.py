from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from ratings import receivers  # noqa: F401  listens to matches.signals.match_finished
