from django.urls import path

from notifications import views

app_name = "notifications"
urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read/", views.mark_all_read, name="mark_all_read"),
    path("preferences/", views.save_preferences, name="preferences"),
]
