from django.apps import AppConfig


class MeepleConfig(AppConfig):
    """The project itself, installed last so that its ``ready`` runs when every setting is final
    (a test or a script may change the settings module before ``django.setup()``)."""

    name = "meeple"
    verbose_name = "Meeple Arena (the project)"

    def ready(self) -> None:
        # lazy: after every setting is final (see above). Every process that sets Django up
        # (web, commands, workers, tests) sends tasks through the Celery app configured from
        # these settings, never a default one.
        from meeple import celery  # noqa: F401
