// The replay's analysis (templates/matches/_replay_analysis.html): the exact odds of the event shown,
// each seat's luck as a line chart (plain SVG), and what-if sandboxes branched from the event shown.
// It follows the replay by watching the event number match.js writes (#at), so match.js needs no hook.
(function () {
  "use strict";
  const root = document.getElementById("match");
  const box = document.getElementById("replay-analysis");
  if (!root || !box || !window.MatchClient) return;
  const api = window.MatchClient.api;
  const matchId = root.dataset.matchId;
  const head = Number(root.dataset.head);
  const seats = JSON.parse(document.getElementById("seats-data").textContent);
  const COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#566573"];
  const SVG = "http://www.w3.org/2000/svg";
  const oddsBox = box.querySelector("#odds");
  let analysis = null;
  let at = Number(root.querySelector("#at").textContent) || head;

  const seatName = (seat) => (seats.find((s) => s.seat === Number(seat)) || {}).label || `seat ${seat}`;
  // Engines write "seat N"; people read names.
  const named = (text) => String(text).replace(/\b([Ss])eat (\d+)\b/g, (m, s, n) => seatName(n));
  const pct = (p) => `${(p.value * 100).toFixed(p.value < 0.01 ? 2 : 1)}%`;
  const signed = (v) => (v > 0 ? "+" : "") + v.toFixed(3);

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("data-")) node.setAttribute(k, v);
      else node[k] = v;
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // -- the odds of one chance event -----------------------------------------------
  function oddsList(row) {
    const wrap = el("div", { class: "odds-detail" });
    const line = el("p", { "data-testid": "odds-outcome" });
    line.append("This outcome (", el("code", {}, JSON.stringify(row.outcome)), ") had a chance of ",
      el("strong", { "data-testid": "p-outcome" }, `${row.p_outcome.exact}`), ` (${pct(row.p_outcome)}).`);
    wrap.appendChild(line);
    if (row.stakes && row.stakes.length) {
      const list = el("ul", { class: "stakes", "data-testid": "stakes" });
      for (const s of row.stakes) {
        const li = el("li", { "data-testid": "stake" });
        li.append(el("span", {}, s.happened ? "✔ " : "✘ "), named(s.label), ": ",
          el("strong", {}, `${s.p.exact}`), ` (${pct(s.p)})`, s.happened ? ", and it happened" : ", and it did not");
        list.appendChild(li);
      }
      wrap.appendChild(list);
      const luck = Object.entries(row.luck || {});
      if (luck.length) {
        wrap.appendChild(el("p", { class: "small" },
          "Luck: " + luck.map(([seat, v]) => `${seatName(seat)} ${signed(v.value)}`).join(", ")));
      }
    } else {
      wrap.appendChild(el("p", { class: "small muted" }, "No result of this roll or draw was singled out as deciding anything."));
    }
    return wrap;
  }

  function showOdds() {
    if (!analysis) return;
    const row = analysis.chance_events.find((e) => e.seq === at);
    oddsBox.replaceChildren(row ? oddsList(row)
      : el("p", { class: "muted" }, at === 0 ? "Before the first event." : `Event ${at} is a move, not a roll or a draw.`));
    box.querySelector("#whatif-reroll").hidden = !row;
    drawMarker();
  }

  // -- the luck chart --------------------------------------------------------------
  const W = 640, H = 220, PAD = 32;
  let chart = null, scaleX = null;

  function drawChart() {
    const series = analysis.luck.series;
    const n = analysis.seats.length;
    let top = 0.5;
    for (const point of series) for (const v of point.luck) top = Math.max(top, Math.abs(v));
    scaleX = (seq) => PAD + ((W - 2 * PAD) * seq) / Math.max(1, head);
    const y = (v) => H / 2 - ((H / 2 - PAD / 2) * v) / top;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("width", "100%");
    svg.setAttribute("class", "chart");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "each side's luck over the match");
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(SVG, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      svg.appendChild(node);
      return node;
    };
    add("line", { x1: PAD, y1: y(0), x2: W - PAD, y2: y(0), stroke: "#bbb" });
    add("text", { x: 2, y: y(top) + 4, "font-size": 11, fill: "#666" }, `+${top.toFixed(1)}`);
    add("text", { x: 2, y: y(0) + 4, "font-size": 11, fill: "#666" }, "0");
    add("text", { x: 2, y: y(-top) + 4, "font-size": 11, fill: "#666" }, `−${top.toFixed(1)}`);
    for (let seat = 0; seat < n; seat++) {
      // A step line: luck changes only at a roll or draw, and holds between them.
      const points = [];
      series.forEach((p, i) => {
        if (i > 0) points.push(`${scaleX(p.seq).toFixed(1)},${y(series[i - 1].luck[seat]).toFixed(1)}`);
        points.push(`${scaleX(p.seq).toFixed(1)},${y(p.luck[seat]).toFixed(1)}`);
      });
      points.push(`${scaleX(head).toFixed(1)},${y(series[series.length - 1].luck[seat]).toFixed(1)}`);
      const line = add("polyline", { points: points.join(" "), fill: "none", stroke: COLOURS[seat % COLOURS.length],
        "stroke-width": 2, "data-seat": seat });
      line.appendChild(document.createElementNS(SVG, "title")).textContent = seatName(seat);
    }
    chart = svg;
    chart.marker = add("line", { x1: 0, y1: PAD / 2, x2: 0, y2: H - PAD / 2, stroke: "#444", "stroke-dasharray": "4 3" });
    box.querySelector("#luck-chart").replaceChildren(svg);
    const totals = box.querySelector("#luck-totals");
    totals.replaceChildren();
    analysis.luck.totals.forEach((t, i) => {
      const chip = el("span", { class: "luck-total", "data-seat": t.seat });
      const seat = seats.find((s) => s.seat === t.seat) || {};
      // A person's name leads to their luck over every verified match and their fairness report.
      const who = seat.username ? el("a", { href: `/fairness/${encodeURIComponent(seat.username)}/` }, seatName(t.seat))
        : seatName(t.seat);
      chip.append(el("span", {}, "■ "), who, `: luck ${signed(t.luck.value)} `,
        el("span", { class: "muted" }, `(${t.actual.value.toFixed(2)} went their way, ${t.expected.value.toFixed(2)} expected)`));
      chip.firstChild.style.color = COLOURS[t.seat % COLOURS.length];
      if (i) totals.append(" · ");
      totals.appendChild(chip);
    });
    box.querySelector("#luck-explained").textContent = analysis.explained;
    drawMarker();
  }

  function drawMarker() {
    if (!chart) return;
    const x = scaleX(at).toFixed(1);
    chart.marker.setAttribute("x1", x);
    chart.marker.setAttribute("x2", x);
  }

  // The chance of each roll or draw beside its line in the log.
  function badgeLog() {
    if (!analysis) return;
    for (const row of analysis.chance_events) {
      const li = root.querySelector(`#log li[data-seq="${row.seq}"]`);
      if (!li || li.querySelector(".odds-badge")) continue;
      li.appendChild(el("span", { class: "odds-badge small muted", title: "the chance of this outcome" },
        ` · p ${row.p_outcome.exact}`));
    }
  }

  // -- what-if sandboxes ----------------------------------------------------------------
  const sandboxBox = box.querySelector("#sandbox");
  const errorBox = box.querySelector("#whatif-error");
  let sandbox = null;

  function showError(message) {
    errorBox.hidden = !message;
    errorBox.textContent = message || "";
  }

  async function branch(branchAt) {
    if (!box.dataset.signedIn) {
      window.location.href = box.dataset.login;
      return;
    }
    showError("");
    const botSeats = [];
    if (box.querySelector("#whatif-bot").checked) {
      // You play the side that moved next in the match (the first seat if a roll came next);
      // the bot takes every other side.
      let yours = 0;
      const next = await api(`/api/matches/${matchId}/events/?after=${branchAt}&limit=1`).catch(() => null);
      const event = next && next.events[0];
      if (event && event.type === "action") yours = event.data.seat;
      for (const s of seats) if (s.seat !== yours) botSeats.push(s.seat);
    }
    try {
      showSandbox(await api(`/api/matches/${matchId}/whatif/`, {
        method: "POST", body: JSON.stringify({ at: branchAt, bot_seats: botSeats }),
      }));
    } catch (err) {
      showError(err.message);
    }
  }

  async function command(path, body) {
    showError("");
    try {
      showSandbox(await api(`/api/sandboxes/${sandbox.id}/${path}`, { method: "POST", body: JSON.stringify(body || {}) }));
    } catch (err) {
      showError(err.message);
    }
  }

  function actionLabel(action) {
    const text = JSON.stringify(action);
    return text.length > 70 ? text.slice(0, 67) + "…" : text;
  }

  function showSandbox(data) {
    sandbox = data;
    sandboxBox.hidden = false;
    sandboxBox.dataset.sandboxId = data.id;
    const status = box.querySelector("#sandbox-status");
    const moving = data.to_move.map((s) => (s === "chance" ? "a roll or draw" : seatName(s))).join(", ");
    status.textContent = data.result
      ? `Sandbox branched after event ${data.branched_at}: the game is over (${(data.result.winners || []).map(seatName).join(", ") || "no winner"}).`
      : `Sandbox branched after event ${data.branched_at}, ${data.steps.length - 1} steps since; to move: ${moving}.`;
    // The original outcome against the latest re-roll: the alternatives side by side.
    const odds = box.querySelector("#sandbox-odds");
    odds.replaceChildren();
    if (data.original) {
      const orig = el("div", { "data-testid": "sandbox-original" });
      orig.appendChild(el("h4", {}, `In the match (event ${data.original.seq})`));
      if (data.original.odds) orig.appendChild(oddsList({ ...data.original.odds, outcome: data.original.outcome }));
      odds.appendChild(orig);
    }
    const rolls = data.steps.filter((s) => s.kind === "chance" && s.odds);
    if (rolls.length) {
      // The sandbox branches just before the event it re-rolls, so its first roll is the one to set
      // beside the match's; the bots may roll again after it (those are in the steps below).
      const first = rolls[0];
      const alt = el("div", { "data-testid": "sandbox-reroll" });
      alt.appendChild(el("h4", {}, `In the sandbox (step ${first.n})`));
      alt.appendChild(oddsList({ ...first.odds, outcome: first.outcome }));
      odds.appendChild(alt);
    }
    const controls = box.querySelector("#sandbox-controls");
    controls.replaceChildren();
    const button = (label, testid, fn) => {
      const b = el("button", { type: "button", "data-testid": testid }, label);
      b.addEventListener("click", fn);
      controls.appendChild(b);
      return b;
    };
    if (data.to_move.includes("chance")) {
      button("Roll it again", "sandbox-roll", () => command("chance/"));
    }
    if (data.to_move.length) button("Let the bot move", "sandbox-bot", () => command("bot/"));
    for (const [seat, actions] of Object.entries(data.legal || {})) {
      actions.slice(0, 24).forEach((action) =>
        button(`${seatName(seat)}: ${actionLabel(action)}`, "sandbox-action",
          () => command("actions/", { seat: Number(seat), action })));
    }
    const renderer = (window.GameRenderers || {})[root.dataset.game];
    const board = box.querySelector("#sandbox-board");
    if (renderer) {
      try {
        renderer.render(board, data.view, { seat: null, live: false, match: { seats } });
      } catch (err) {
        board.textContent = "";
      }
    }
    const steps = box.querySelector("#sandbox-steps");
    steps.replaceChildren(...data.steps.slice(1).slice(-12).map((s) =>
      el("li", { value: s.n }, named(s.text || s.kind))));
  }

  box.querySelector("#whatif-play").addEventListener("click", () => branch(at));
  box.querySelector("#whatif-reroll").addEventListener("click", () => branch(Math.max(0, at - 1)));

  // -- follow the replay ---------------------------------------------------------------
  new MutationObserver(() => {
    const now = Number(root.querySelector("#at").textContent);
    if (now !== at) {
      at = now;
      showOdds();
    }
  }).observe(root.querySelector("#at"), { childList: true, characterData: true, subtree: true });
  new MutationObserver(badgeLog).observe(root.querySelector("#log"), { childList: true });

  api(`/api/matches/${matchId}/analysis/`).then((data) => {
    analysis = data;
    at = Number(root.querySelector("#at").textContent);
    drawChart();
    showOdds();
    badgeLog();
  }).catch((err) => {
    oddsBox.textContent = `The analysis is not available: ${err.message}`;
  });
})();
