from django.urls import include, path

from accounts import views

app_name = "accounts"

password_reset = [
    path("", views.PasswordResetView.as_view(), name="password-reset"),
    path("sent/", views.PasswordResetDoneView.as_view(), name="password-reset-done"),
    path("complete/", views.PasswordResetCompleteView.as_view(), name="password-reset-complete"),
    path(
        "<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(), name="password-reset-confirm"
    ),
]

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("password-reset/", include(password_reset)),
]
