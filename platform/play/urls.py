from django.urls import path

from play import views

app_name = "play"
urlpatterns = [
    path("", views.mine, name="mine"),
    path("new/", views.new, name="new"),
    path("<id:match_id>/<id:seat>/", views.seat_page, name="seat"),
    path("<id:match_id>/<id:seat>/claim", views.claim, name="claim"),
    path("<id:match_id>/<id:seat>/state.json", views.state, name="state"),
    path("<id:match_id>/<id:seat>/act", views.act, name="act"),
    path("<id:match_id>/<id:seat>/resign", views.resign, name="resign"),
]
