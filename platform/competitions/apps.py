from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = "Tournaments and leagues"

    def ready(self) -> None:
        from competitions import receivers  # noqa: F401  listens to matches.signals
