"""Authentication: django-axes's lockout in front of Django's password check; API tokens that expire."""

from __future__ import annotations

import functools
from datetime import timedelta

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections, router
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from config.rows import Columns, prepared


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
        user, token = _token_with_user(key)
        max_age = timedelta(days=settings.TOKEN_MAX_AGE_DAYS)
        if token.created < timezone.now() - max_age:
            raise exceptions.AuthenticationFailed(
                "This token has expired; make a new one on your account page.", code="token_expired"
            )
        return user, token


def _token_with_user(key: str):
    """DRF's ``TokenAuthentication.authenticate_credentials``, its refusals word for word, with
    the token and its user read by one statement written once (config/rows.py): every API
    request signed with a token makes this read, and the ORM's compiling of it was most of its
    CPU (issue 17, P5)."""
    connection = connections[router.db_for_read(Token)]
    with connection.cursor() as cursor:
        cursor.execute(prepared(cursor, _token_sql(connection.alias)), [key])
        row = cursor.fetchone()
    if row is None:
        raise exceptions.AuthenticationFailed(_("Invalid token."))
    token = _TOKENS.build(connection, row[: len(_TOKENS)])
    user = _USERS.build(connection, row[len(_TOKENS) :])
    Token._meta.get_field("user").set_cached_value(token, user)
    if not user.is_active:
        raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
    return user, token


_TOKENS, _USERS = Columns(Token, "token"), Columns(get_user_model(), "user")


@functools.cache
def _token_sql(alias: str) -> str:
    connection = connections[alias]
    qn = connection.ops.quote_name
    user, token = _USERS.model._meta, Token._meta
    return (
        f"SELECT {_TOKENS.select(connection)}, {_USERS.select(connection)}"
        f" FROM {qn(token.db_table)} {qn('token')} INNER JOIN {qn(user.db_table)} {qn('user')}"
        f" ON {qn('user')}.{qn(user.pk.column)} = {qn('token')}.{qn(token.get_field('user').column)}"
        f" WHERE {qn('token')}.{qn(token.get_field('key').column)} = %s"
    )
