from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .invitations import views as invitation_views

urlpatterns = [
    path("", views.home, name="home"),
    path("matches/new/", views.match_new, name="match-new"),
    path("matches/<uuid:match_id>/", views.match_live, name="match-live"),
    path("matches/<uuid:match_id>/replay/", views.match_replay, name="match-replay"),
    path("invitations/<uuid:invitation_id>/", invitation_views.invitation_page, name="invitation"),
    path("invitations/<uuid:invitation_id>/<str:verb>/", invitation_views.invitation_answer, name="invitation-answer"),
    path("games/annihilageddon/cards/", views.annihilageddon_gallery, name="annihilageddon-gallery"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/password/", views.PasswordChange.as_view(), name="password_change"),
    path("accounts/", views.account, name="account"),
]
