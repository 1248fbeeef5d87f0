from django.urls import path

from catalog import views

app_name = "catalog"
urlpatterns = [
    path("", views.game_list, name="list"),
    path("<slug:slug>/", views.game_detail, name="detail"),
]
