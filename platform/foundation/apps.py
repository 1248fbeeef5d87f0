from django.apps import AppConfig
from django.urls import register_converter

from foundation.converters import IdConverter


class FoundationConfig(AppConfig):
    name = "foundation"
    verbose_name = "Foundation (what every app stands on)"

    def ready(self) -> None:
        # Every URL map of the site uses <id:...>: registered before any of them is read.
        register_converter(IdConverter, "id")
