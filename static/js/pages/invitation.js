// The invitation page (templates/matches/invitations/invitation.html): while the invitation waits for
// answers, ask the API now and then; when everyone has accepted, go to the match (or draft room), and
// when it was declined or cancelled, show the page again with that. A file, not an inline script, for the CSP.
(function () {
  const box = document.getElementById("invitation");
  if (!box || box.dataset.status !== "pending") return;
  const api = box.dataset.api;
  let delay = 1000;

  async function check() {
    if (document.hidden) {
      // A tab in the background asks nothing; coming back to it asks at once.
      document.addEventListener("visibilitychange", check, { once: true });
      return;
    }
    try {
      const response = await fetch(api, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) {
        const invitation = await response.json();
        if (invitation.status === "accepted" && invitation.url) {
          window.location.assign(invitation.url);
          return;
        }
        if (invitation.status !== "pending") {
          window.location.reload();
          return;
        }
      }
    } catch (error) {
      // Offline for a moment: keep asking, a little less often.
    }
    delay = Math.min(delay * 1.5, 5000);
    window.setTimeout(check, delay);
  }
  window.setTimeout(check, delay);
})();
