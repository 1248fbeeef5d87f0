from django.apps import AppConfig


class SitePagesConfig(AppConfig):
    name = "site_pages"
    verbose_name = "Site pages"

    def ready(self) -> None:
        # lazy: ready() runs once every app is loaded; these import models, which a module-level
        # import in apps.py would load before the app registry is ready.
        from site_pages.page_keys import register_pages

        register_pages()
