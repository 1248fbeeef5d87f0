from django.apps import AppConfig


class SitePagesConfig(AppConfig):
    name = "site_pages"
    verbose_name = "Site pages"

    def ready(self) -> None:
        from site_pages.page_keys import register_pages

        register_pages()
