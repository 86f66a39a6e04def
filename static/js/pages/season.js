// The season page (templates/seasons/season.html): a verified result lands on the season's stream, so
// fetch the new table, no reload. A file, not an inline script, for the CSP.
(function () {
  const box = document.getElementById("standings");
  const status = document.querySelector("[data-testid=live-status]");
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/streams/${box.dataset.stream}/`);
    ws.onopen = () => { status.textContent = "live"; };
    ws.onmessage = async () => {
      const res = await fetch(`${location.pathname}?partial=standings`, { credentials: "same-origin" });
      box.innerHTML = await res.text();
    };
    ws.onclose = () => { status.textContent = "reconnecting…"; setTimeout(connect, 1000); };
  }
  connect();
})();
