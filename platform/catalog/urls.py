from django.urls import path

from catalog import views

app_name = "catalog"
urlpatterns = [
    path("", views.game_list, name="list"),
    path("<slug:slug>/rules/", views.game_rules, name="rules"),
    path("<slug:slug>/starter-bot.zip", views.starter_bot, name="starter_bot"),
]
