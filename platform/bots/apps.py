from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "bots"
    verbose_name = "Bots"

    def ready(self) -> None:
        # lazy: ready() runs once every app is loaded; these import models, which a module-level
        # import in apps.py would load before the app registry is ready.
        from arena.codestore import register_fetcher
        from bots import receivers  # noqa: F401  the games' bot counters
        from bots.stored_code import artifact_digest, fetch_artifact, fetch_version_code

        # Workers fetch uploaded code (and compiled languages' builds) by version id through
        # the storage API (no shared disk).
        register_fetcher(fetch_version_code, builds=(artifact_digest, fetch_artifact))
