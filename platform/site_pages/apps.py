from django.apps import AppConfig


class SitePagesConfig(AppConfig):
    name = "site_pages"
    verbose_name = "Site pages"
