from django.urls import path

from competitions import views

app_name = "competitions"
urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("<int:pk>/", views.tournament_detail, name="tournament_detail"),
]
