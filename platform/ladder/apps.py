from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "ladder"
    verbose_name = "Ladder, qualification and challenges"

    def ready(self) -> None:
        from ladder import receivers  # noqa: F401  listens to uploads and finished matches
