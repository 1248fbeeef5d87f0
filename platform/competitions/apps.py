from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = "Tournaments and leagues"

    def ready(self) -> None:
        from audiences.selectors import register_overseer

        from competitions import receivers  # noqa: F401  listens to matches.signals
        from competitions.permissions import organised_audiences

        # A tournament's organiser sees its private matches: matches asks audiences, never us.
        register_overseer(organised_audiences)
