from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = "Tournaments and leagues"

    def ready(self) -> None:
        # In ready(), not at the top: Django imports apps.py before any app's models are
        # loaded, and each of these modules imports models.
        from audiences.selectors import register_overseer  # in ready(): imports models

        # in ready(): the receivers listen to matches.signals
        from competitions import receivers  # noqa: F401
        from competitions.permissions import organised_audiences  # in ready(): imports models

        # A tournament's organiser sees its private matches: matches asks audiences, never us.
        register_overseer(organised_audiences)
