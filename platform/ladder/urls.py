from django.urls import path

from ladder import views

app_name = "ladder"
urlpatterns = [
    path("<id:pk>/challenge/", views.bot_challenge, name="challenge"),
    path("<id:pk>/pin/", views.bot_pin, name="pin"),
]
