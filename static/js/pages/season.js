// The season page (templates/seasons/season.html): a verified result lands on the season's stream, so
// fetch the new table, no reload. A file, not an inline script, for the CSP.
(function () {
  const box = document.getElementById("standings");
  const status = document.querySelector("[data-testid=live-status]");
  let retry = 1000;
  let inFlight = false;
  let again = false;

  // One table request at a time, and at most one more after it, however many messages arrive:
  // a burst of results (a whole round verified at once) costs every open page two requests, not
  // one per result, and two answers can never land in the wrong order.
  async function refresh() {
    if (inFlight) { again = true; return; }
    inFlight = true;
    // While a table request is out: assistive technology waits for it, and so can a test, which
    // must not record a result while the page's first request may still be answered after it.
    box.setAttribute("aria-busy", "true");
    try {
      const res = await fetch(`${location.pathname}?partial=standings`, { credentials: "same-origin" });
      // A refusal (429, a 503 while the database restarts) has a page of its own as its body:
      // the table stays as it was, and the next message or reconnection asks again.
      if (res.ok) {
        box.innerHTML = await res.text();
        if (status.textContent === "update delayed") status.textContent = "live";
      } else {
        status.textContent = "update delayed";
      }
    } catch (e) {
      status.textContent = "update delayed";
    } finally {
      inFlight = false;
      box.removeAttribute("aria-busy");
      if (again) { again = false; refresh(); }
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/streams/${box.dataset.stream}/`);
    window.__seasonSocket = ws;
    ws.onopen = () => {
      retry = 1000;
      status.textContent = "live";
      refresh(); // whatever was recorded while the socket was down
    };
    ws.onmessage = () => refresh();
    ws.onclose = () => {
      status.textContent = "reconnecting…";
      // Backing off, with jitter: after a restart every open page would otherwise come back in
      // the same second, and again every second while the server is still down.
      setTimeout(connect, retry * (0.75 + Math.random() / 2));
      retry = Math.min(retry * 2, 15000);
    };
  }
  connect();
})();
