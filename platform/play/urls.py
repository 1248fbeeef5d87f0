from django.urls import path

from play import views

app_name = "play"
urlpatterns = [
    path("", views.mine, name="mine"),
    path("new/", views.new, name="new"),
    path("<int:match_id>/<int:seat>/", views.seat_page, name="seat"),
    path("<int:match_id>/<int:seat>/claim", views.claim, name="claim"),
    path("<int:match_id>/<int:seat>/state.json", views.state, name="state"),
    path("<int:match_id>/<int:seat>/act", views.act, name="act"),
    path("<int:match_id>/<int:seat>/resign", views.resign, name="resign"),
]
