// The invitation page (templates/matches/invitations/invitation.html): while the invitation waits for
// answers, a socket tells the page when it changed (an answer, a cancel: matches/invitations/live.py);
// the page then reads it from the API. When everyone has accepted it goes to the match (or draft room);
// when the invitation was declined, cancelled or expired it shows the page again with that. While the
// socket is down the page reads the invitation at each reconnection attempt, and again once the socket
// is back, so nothing said meanwhile is missed. A file, not an inline script, for the CSP.
(function () {
  const box = document.getElementById("invitation");
  if (!box || box.dataset.status !== "pending") return;
  const api = box.dataset.api;
  const connection = box.querySelector("[data-testid=connection]");
  let retry = 1000;
  let leaving = false;

  async function check() {
    if (leaving) return;
    try {
      const response = await fetch(api, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) return;
      const invitation = await response.json();
      if (invitation.status === "accepted" && invitation.url) {
        leaving = true;
        window.location.assign(invitation.url);
        return;
      }
      if (invitation.status !== "pending") {
        leaving = true;
        window.location.reload();
        return;
      }
      for (const invitee of invitation.invitees) {
        const row = box.querySelector(`[data-invitee="${CSS.escape(invitee.username)}"] .badge`);
        if (row) row.textContent = invitee.response;
      }
    } catch (error) {
      // Offline for a moment: the next reconnection attempt asks again.
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/invitations/${box.dataset.id}/`);
    window.__invitationSocket = socket;
    socket.onopen = () => {
      retry = 1000;
      if (connection) connection.textContent = "live";
      check(); // whatever changed while the socket was down
    };
    socket.onmessage = () => check();
    socket.onclose = () => {
      if (leaving) return;
      if (connection) connection.textContent = "reconnecting…";
      check();
      window.setTimeout(connect, retry);
      retry = Math.min(retry * 2, 15000);
    };
  }

  // Expiry is a matter of time, not of anyone's answer: nothing is sent then, so the page asks.
  const expires = Date.parse(box.dataset.expiresAt);
  if (!Number.isNaN(expires)) {
    window.setTimeout(check, Math.min(Math.max(expires - Date.now(), 0) + 1000, 2147483647));
  }
  // A tab brought back to the front reads the invitation at once (its timers may have been slowed).
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) check();
  });
  connect();
})();
