"""Authentication: django-axes's lockout in front of Django's password check; API tokens that expire."""

from __future__ import annotations

from datetime import timedelta

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication


class LockoutBackend(AxesStandaloneBackend):
    """django-axes refuses (raises) when called without the request, which it needs to know the
    address. Every sign-in over HTTP passes the request (the login page does); only code inside the
    process calls without one (a management command, a test's client.login), and it has no address
    to lock: it falls through to the password check."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


class ExpiringTokenAuthentication(TokenAuthentication):
    """API tokens last TOKEN_MAX_AGE_DAYS from their creation; the account page makes a new one.
    A leaked token then stops working by itself, not only when its owner notices."""

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        max_age = timedelta(days=settings.TOKEN_MAX_AGE_DAYS)
        if token.created < timezone.now() - max_age:
            raise exceptions.AuthenticationFailed(
                "This token has expired; make a new one on your account page.", code="token_expired"
            )
        return user, token
