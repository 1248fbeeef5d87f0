from django.urls import path

from site_pages import views

app_name = "site_pages"
urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("docs/protocol/", views.protocol, name="protocol"),
    path("docs/api/", views.api_guide, name="api_guide"),
]
