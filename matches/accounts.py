"""Accounts: a password change revokes the account's API tokens.

One hook on the user model's save covers every way a password changes: the password page, the
admin's forms (a new password, or password sign-in switched off), ``manage.py changepassword``
and any ``set_password`` followed by ``save``. A token leaked with (or instead of) the old
password then stops working with it, as the other sessions do (Django's session auth hash).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save
from rest_framework.authtoken.models import Token


def password_changes(user, update_fields) -> bool:
    if user._state.adding or user.pk is None or (update_fields is not None and "password" not in update_fields):
        return False
    stored = type(user).objects.filter(pk=user.pk).values_list("password", flat=True).first()
    if stored is None or stored == user.password:
        return False
    # Django stores a password it has just checked again when the preferred hasher or its work
    # factor moved on (check_password's setter, after every Django upgrade): the same password,
    # saved alone, with set_password's raw value already cleared. Revoking then would break every
    # script of everyone who signs in after an upgrade.
    rehashed = set(update_fields or ()) == {"password"} and user._password is None and user.has_usable_password()
    return not rehashed


def revoke_tokens_on_password_change(sender, instance, update_fields=None, raw=False, **kwargs) -> None:
    if raw:  # loading a fixture: no account is changing
        return
    if password_changes(instance, update_fields):
        # Before the new hash is written: should the write fail, the token is gone and the old
        # password still in place, never a new password beside the old token.
        Token.objects.filter(user_id=instance.pk).delete()


def connect() -> None:
    pre_save.connect(
        revoke_tokens_on_password_change, sender=get_user_model(), dispatch_uid="revoke_tokens_on_password_change"
    )
