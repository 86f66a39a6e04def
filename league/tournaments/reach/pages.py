"""The account page's tournament-email switch (a plain form, back to the account page)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from . import services


@require_POST
@login_required
def email_preferences(request):
    services.email_opt_out_set(user=request.user, opted_out=request.POST.get("opted_out") == "1")
    return redirect("account")
