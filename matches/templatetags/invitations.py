"""{% invitations_panel %}: the signed-in player's open invitations, on the home and account pages."""

from django import template

from matches.invitations.selectors import pending_for

register = template.Library()


@register.inclusion_tag("matches/invitations/_panel.html", takes_context=True)
def invitations_panel(context):
    user = context["request"].user
    panel = pending_for(user=user) if user.is_authenticated else {"received": [], "sent": [], "started": []}
    return {**panel, "csrf_token": context.get("csrf_token"), "user": user}
