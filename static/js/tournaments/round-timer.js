// The organiser's round timer on every tournament page (tournament.js draws it with RoundTimer.panel).
// The server sends the seconds left when the page fetched the tournament; this counts down from
// there with the browser's monotonic clock (so a wrong clock on the computer does not matter) and
// starts over from the server's figure on every fetch (the stream's websocket update refetches).
(function () {
  "use strict";
  let base = null;  // {timer, left, at}: the server's seconds_left and when this page received it
  let lastData = null;

  const clock = (seconds) => {
    const s = Math.abs(seconds);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const mm = String(m).padStart(h ? 2 : 1, "0"), ss = String(r).padStart(2, "0");
    return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
  };

  function leftNow() {
    if (!base) return null;
    if (base.timer.paused) return base.left;
    return base.left - Math.floor((performance.now() - base.at) / 1000);
  }

  function text() {
    const t = base.timer;
    const left = leftNow();
    if (t.paused) return `Round ${t.round}: paused · ${clock(left)} left`;
    if (left < 0) return `Round ${t.round}: time is up (${clock(left)} over)`;
    return `Round ${t.round}: ${clock(left)} left`;
  }

  function tick() {
    const node = document.querySelector("[data-testid=round-timer-left]");
    if (node && base) {
      const now = text();
      if (node.textContent !== now) node.textContent = now;
    }
  }
  setInterval(tick, 250);

  // The timer card: the clock for everyone while the round's timer exists; the organiser's
  // buttons (start, pause, resume, extend) while the tournament runs.
  function panel(data, { el, post }) {
    if (data !== lastData) {
      lastData = data;
      const t = data.timer && data.timer.current ? data.timer : null;
      base = t ? { timer: t, left: t.seconds_left, at: performance.now() } : null;
    }
    const running = data.progress && data.progress.status === "running";
    if (!base && !(data.is_organiser && running)) return null;
    const bits = [el("strong", {}, "Round timer")];
    if (base) {
      bits.push(el("span", { class: "badge timer", role: "timer", "aria-live": "off", "data-testid": "round-timer-left" }, text()));
    } else {
      bits.push(el("span", { class: "muted", "data-testid": "round-timer-left" }, `Round ${data.progress.round}: not started`));
    }
    if (data.is_organiser && running) {
      const minutesInput = (label, testid, value) => el("input", { type: "number", min: 1, max: 600, value, class: "minutes",
        "aria-label": label, "data-testid": testid });
      if (!base) {
        const len = minutesInput("Round length in minutes", "timer-minutes", data.options.round_minutes || 50);
        bits.push(len, el("button", { class: "primary", "data-testid": "timer-start",
          onclick: () => post("timer-start", { minutes: Number(len.value) }) }, "Start the round timer"));
      } else {
        bits.push(base.timer.paused
          ? el("button", { "data-testid": "timer-resume", onclick: () => post("timer-resume", {}) }, "Resume")
          : el("button", { "data-testid": "timer-pause", onclick: () => post("timer-pause", {}) }, "Pause"));
        const more = minutesInput("Extension in minutes", "timer-extend-minutes", 5);
        bits.push(more, el("button", { "data-testid": "timer-extend", onclick: () => post("timer-extend", { minutes: Number(more.value) }) }, "Extend"));
        if (data.bracket) {
          // A bracket's next wave of matches gets a clock of its own.
          const len = minutesInput("Round length in minutes", "timer-minutes", data.options.round_minutes || 50);
          bits.push(len, el("button", { "data-testid": "timer-start", onclick: () => post("timer-start", { minutes: Number(len.value) }) }, "Start a new clock"));
        }
      }
    }
    return el("div", { class: "card row round-timer", "data-testid": "round-timer" }, bits);
  }

  window.RoundTimer = { panel };
})();
