// The pick clock and the hand-off link of a draft room, on top of the live match client.
(function () {
  "use strict";
  function start(root) {
    const id = root.dataset.draftId;
    const clock = root.querySelector("[data-testid=clock]");
    const left = root.querySelector("#clock-left");
    let deadline = null; // in this browser's clock
    let expiring = false;

    async function refresh() {
      const d = await MatchClient.api(`/api/drafts/${id}/`);
      if (d.deadline) {
        // Trust the server's clock: shift its deadline by the difference to ours.
        const skew = Date.now() - Date.parse(d.server_time);
        deadline = Date.parse(d.deadline) + skew;
        clock.hidden = false;
      } else {
        deadline = null;
        clock.hidden = true;
      }
      if (d.match) {
        root.querySelector("#handoff-link").href = `/matches/${d.match}/`;
        root.querySelector("#handoff").hidden = false;
      }
    }

    async function expire() {
      if (expiring) return;
      expiring = true;
      try {
        await MatchClient.api(`/api/drafts/${id}/clock/`, {
          method: "POST",
          body: JSON.stringify({ expected_seq: Number(root.dataset.headSeq || 0), event_id: MatchClient.uuid4() }),
        });
      } catch (err) {
        // Another page got there first (stale_seq) or our clock ran fast (clock_running): resync.
        await refresh();
      } finally {
        expiring = false;
      }
    }

    setInterval(() => {
      if (deadline === null) return;
      const ms = deadline - Date.now();
      left.textContent = `${Math.max(0, Math.ceil(ms / 1000))}s`;
      clock.classList.toggle("urgent", ms < 10000);
      if (ms <= 0 && document.visibilityState !== "hidden") expire();
    }, 250);

    root.addEventListener("match:update", () => refresh());
    refresh();
  }
  window.DraftRoom = { start };
})();
