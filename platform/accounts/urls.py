from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import settings_page, views

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("settings/", settings_page.account_settings, name="account_settings"),
    path("settings/delete/", settings_page.delete_own_account, name="account_delete"),
]
