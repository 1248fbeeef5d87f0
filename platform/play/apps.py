from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "Play against bots"

    def ready(self) -> None:
        # lazy: ready() runs once every app is loaded; these import models, which a module-level
        # import in apps.py would load before the app registry is ready.
        from arena.human_seat import register_channel_factory
        from play.channel import channel_for_spec

        # Workers reach the people of a match through the shared cache (docs/human-play.md).
        register_channel_factory(channel_for_spec)
