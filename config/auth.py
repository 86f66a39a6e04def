"""Authentication backend: django-axes's lockout in front of Django's password check."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend


class LockoutBackend(AxesStandaloneBackend):
    """django-axes refuses (raises) when called without the request, which it needs to know the
    address. Every sign-in over HTTP passes the request (the login page does); only code inside the
    process calls without one (a management command, a test's client.login), and it has no address
    to lock: it falls through to the password check."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
