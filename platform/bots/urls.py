from django.urls import path

from bots import views

app_name = "bots"
urlpatterns = [
    path("", views.bot_list, name="list"),
    path("new/", views.bot_create, name="create"),
    path("<id:pk>/upload/", views.bot_upload, name="upload"),
]
