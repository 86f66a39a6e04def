// The live and replay pages: a small client over the REST API and the match websocket.
// Game-specific drawing lives in window.GameRenderers[game].render(board, view, ctx).
(function () {
  "use strict";
  const renderers = (window.GameRenderers = window.GameRenderers || {});

  function csrfToken() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  async function api(path, options) {
    const res = await fetch(path, {
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      ...options,
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      const err = new Error(body.detail || `Request failed (${res.status})`);
      err.code = body.code;
      err.status = res.status;
      throw err;
    }
    return body;
  }

  function uuid4() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  // Engines write "seat N"; people read names.
  function withNames(text, seats) {
    if (!seats) return text;
    return text.replace(/\b([Ss])eat (\d+)\b/g, (m, s, n) => {
      const seat = seats.find((x) => x.seat === Number(n));
      return seat ? seat.label : m;
    });
  }

  // A live frame redraws the board, and the element a keyboard player had reached (a card, a
  // square, a button) is replaced by a copy: focus would fall back to the top of the page with
  // every opponent's move. The copy is found again by what it is (its tag, data attributes, label
  // and name), and by its place among its look-alikes.
  function focusMark(board) {
    const el = document.activeElement;
    if (!el || el === board || !board.contains(el)) return null;
    const parts = [el.tagName.toLowerCase()];
    for (const a of el.attributes) {
      if (a.name.startsWith("data-") || a.name === "aria-label" || a.name === "name") {
        parts.push(`[${a.name}="${CSS.escape(a.value)}"]`);
      }
    }
    const selector = parts.join("");
    return { selector, index: Array.from(board.querySelectorAll(selector)).indexOf(el) };
  }

  function refocus(board, mark) {
    if (!mark) return;
    const now = document.activeElement;
    if (now && now !== document.body && now !== board && document.contains(now)) return; // focus moved on by itself
    const found = board.querySelectorAll(mark.selector);
    const el = found[Math.min(Math.max(mark.index, 0), found.length - 1)];
    if (el && !el.disabled) el.focus({ preventScroll: true });
  }

  function renderLog(list, lines, currentSeq, seats) {
    for (const line of lines) {
      if (list.querySelector(`li[data-seq="${line.seq}"]`)) continue; // never show an event twice
      const li = document.createElement("li");
      li.value = line.seq;
      li.dataset.seq = line.seq;
      li.textContent = withNames(line.text, seats);
      list.appendChild(li);
    }
    if (currentSeq === undefined) {
      list.scrollTop = list.scrollHeight; // live: the newest event
      return;
    }
    // Replay: the log reads up to the event shown (later lines, the result among them, stay
    // hidden until stepped to), with the current line scrolled into the log's view.
    let current = null;
    list.querySelectorAll("li").forEach((li) => {
      const seq = Number(li.dataset.seq);
      li.classList.toggle("current", seq === currentSeq);
      li.hidden = seq > currentSeq;
      if (seq <= currentSeq) current = li;
    });
    if (current) list.scrollTop += current.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientHeight / 2;
    else list.scrollTop = 0;
  }

  function setBadge(el, text, cls) {
    if (!el) return;
    el.textContent = text;
    el.className = `badge ${cls || ""}`;
  }

  const VERDICT_TEXT = { pending: "Not yet verified", verified: "Verified", disputed: "Disputed" };

  function live(root) {
    const matchId = root.dataset.matchId;
    const seat = root.dataset.seat === "" ? null : Number(root.dataset.seat);
    const board = root.querySelector("#board");
    const logList = root.querySelector("#log");
    const errorBox = root.querySelector("#error");
    const conn = root.querySelector('[data-testid="connection"]');
    const renderer = renderers[root.dataset.game];
    let headSeq = 0;
    let lastSeq = 0;
    let socket = null;
    let retry = 0;
    let busy = false;
    let pending = null;

    function showError(message) {
      errorBox.textContent = message;
      errorBox.hidden = !message;
    }

    const ctx = {
      seat,
      mode: root.dataset.mode,
      async act(action) {
        // A click while the previous move is still on its way (the socket may already show the
        // next turn) is kept and sent right after it, never silently dropped.
        if (busy) { pending = action; return; }
        busy = true;
        showError("");
        const eventId = uuid4(); // one id for the retries: the server stores the action once
        try {
          for (let attempt = 0; ; attempt++) {
            try {
              await api(`/api/matches/${matchId}/actions/`, {
                method: "POST",
                body: JSON.stringify({ seat, action, expected_seq: headSeq, event_id: eventId }),
              });
              return;
            } catch (err) {
              // Someone moving at the same time (simultaneous defences, team building) moved
              // the stream on. If this seat is still to move, the action is re-checked by the
              // server against the new head; otherwise the player sees why it was refused.
              if (err.code !== "stale_seq" || attempt >= 2) throw err;
              const summary = await api(`/api/matches/${matchId}/`);
              if (!summary.to_move.includes(seat)) throw err;
              headSeq = summary.head_seq;
            }
          }
        } catch (err) {
          showError(err.message);
          if (socket) socket.send(JSON.stringify({ type: "resync" }));
        } finally {
          busy = false;
          const next = pending;
          pending = null;
          if (next) ctx.act(next);
        }
      },
      async recordChance(outcome) {
        showError("");
        try {
          await api(`/api/matches/${matchId}/actions/`, {
            method: "POST",
            body: JSON.stringify({ seat, chance: outcome, expected_seq: headSeq, event_id: uuid4() }),
          });
        } catch (err) {
          showError(err.message);
        }
      },
    };

    // Tabletop: the people at the table roll real dice (or shuffle real cards) and enter the result.
    function renderChanceEntry(update) {
      const form = root.querySelector("#chance-entry");
      const spec = update.match.chance;
      // A game whose page enters card draws itself (by clicking cards) gets no generic form for them.
      // A game whose page enters dice itself (by clicking die faces) likewise.
      const ownEntry = spec && renderer && ((spec.kind === "draw" && renderer.entersDraws)
        || (spec.kind === "dice" && renderer.entersDice));
      if (!spec || ownEntry || ctx.mode !== "tabletop" || seat === null) { form.hidden = true; form.replaceChildren(); return; }
      if (form.dataset.forSeq === String(update.match.head_seq)) return;
      form.dataset.forSeq = String(update.match.head_seq);
      form.hidden = false;
      const enterers = update.match.chance_entered_by || [];
      if (!enterers.includes(seat)) {
        // A private outcome is entered by the seat that sees it: say whose input the table waits for.
        const names = enterers.map((s) => (update.match.seats[s] || {}).label || `seat ${s}`).join(" or ");
        const wait = document.createElement("p");
        wait.dataset.testid = "chance-waiting";
        wait.textContent = `Waiting for ${names || "the table"} to enter: ${spec.label || "the outcome"}.`;
        form.replaceChildren(wait);
        return;
      }
      const title = document.createElement("h3");
      title.textContent = spec.label || "Record the outcome";
      const fields = [];
      // At a real table a die is entered by clicking the face that came up; only a die with more
      // faces than fit on a row (over 20) is typed.
      const faces = [];
      if (spec.kind === "dice") {
        spec.dice.forEach(([lo, hi], i) => {
          if (hi - lo + 1 > 20) {
            const label = document.createElement("label");
            label.textContent = `Die ${i + 1} (${lo}-${hi})`;
            const input = document.createElement("input");
            Object.assign(input, { type: "number", min: lo, max: hi, required: true, name: `die${i}` });
            input.dataset.testid = `die-${i}`;
            label.append(input);
            fields.push(label);
            return;
          }
          const group = document.createElement("div");
          group.className = "die-faces";
          group.setAttribute("role", "group");
          group.setAttribute("aria-label", `Die ${i + 1}: the face that came up`);
          group.dataset.testid = `die-${i}`;
          const name = document.createElement("span");
          name.className = "die-faces-name";
          name.textContent = `Die ${i + 1}`;
          group.append(name);
          for (let v = lo; v <= hi; v += 1) {
            const face = document.createElement("button");
            face.type = "button";
            face.className = "die-face";
            face.textContent = String(v);
            face.dataset.testid = `die-${i}-${v}`;
            face.setAttribute("aria-pressed", "false");
            face.onclick = () => {
              faces[i] = v;
              group.querySelectorAll(".die-face").forEach((b) => b.setAttribute("aria-pressed", String(b === face)));
            };
            group.append(face);
          }
          fields.push(group);
        });
      } else if (spec.kind === "draw") {
        // Pages that show the cards take draws by clicking them (entersDraws); this is the fallback:
        // the drawn cards by name, never their place in the server's ordering of the pool.
        const label = document.createElement("label");
        label.textContent = `The ${spec.count} card(s) you drew, by name, separated by commas`;
        const input = document.createElement("input");
        Object.assign(input, { name: "cards", required: true });
        input.dataset.testid = "drawn-cards";
        label.append(input);
        fields.push(label);
      } else {
        const label = document.createElement("label");
        label.textContent = `Card order, top first: the numbers 0-${spec.size - 1} separated by commas`;
        const input = document.createElement("textarea");
        input.name = "order";
        input.rows = 3;
        input.value = [...Array(spec.size).keys()].join(",");
        label.append(input);
        fields.push(label);
      }
      const submit = document.createElement("button");
      submit.type = "submit";
      submit.className = "primary";
      submit.textContent = "Record";
      form.replaceChildren(title, ...fields, submit);
      form.onsubmit = (ev) => {
        ev.preventDefault();
        if (spec.kind === "dice" && spec.dice.some(([lo, hi], i) => hi - lo + 1 <= 20 && faces[i] === undefined)) {
          showError("Click the face that came up on every die first.");
          return;
        }
        const outcome = spec.kind === "dice"
          ? spec.dice.map(([lo, hi], i) => (hi - lo + 1 <= 20 ? faces[i] : Number(form.elements[`die${i}`].value)))
          : spec.kind === "draw"
            ? { cards: form.elements.cards.value.split(",").map((x) => x.trim()).filter(Boolean) }
            : form.elements.order.value.split(",").map((x) => Number(x.trim()));
        ctx.recordChance(outcome);
      };
    }

    // Clocks: the server sends each seat's time left as of a moment; the page counts down the
    // running ones from there, and once one reaches zero anyone may claim the win on time.
    const clockBox = root.querySelector("#clocks");
    let clockData = null;
    let clockBase = 0;
    function fmt(seconds) {
      const s = Math.max(0, Math.ceil(seconds));
      if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
      const m = Math.floor(s / 60);
      return s >= 3600 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`
        : `${m}:${String(s % 60).padStart(2, "0")}`;
    }
    function drawClocks() {
      if (!clockBox || !clockData) return;
      const elapsed = (performance.now() - clockBase) / 1000;
      const seats = clockData.seats;
      let out = false;
      const rows = clockData.left.map((left, s) => {
        const running = clockData.running.includes(s);
        const now = running ? left - elapsed : left;
        if (running && now <= 0) out = true;
        const name = seats[s] ? seats[s].label : `Seat ${s}`;
        return `<li class="clock${running ? " running" : ""}${now <= 0 ? " flagged" : ""}" data-testid="clock-${s}">` +
          `<span>${name}</span> <strong>${fmt(now)}</strong></li>`;
      });
      clockBox.hidden = false;
      clockBox.querySelector("ol").innerHTML = rows.join("");
      const claim = clockBox.querySelector("button");
      claim.hidden = !(out && clockData.live);
    }
    if (clockBox) {
      clockBox.querySelector("button").onclick = async () => {
        showError("");
        try {
          await api(`/api/matches/${matchId}/timeout/`, {
            method: "POST", body: JSON.stringify({ expected_seq: headSeq, event_id: uuid4() }),
          });
        } catch (err) {
          showError(err.message);
        }
      };
      setInterval(drawClocks, 250);
    }

    // Resigning takes two clicks (Resign, then Yes): one stray click never ends a match. The
    // same event_id is sent again if the answer was lost and Yes is pressed once more.
    const resignBox = root.querySelector("#resign");
    if (resignBox) {
      const start = resignBox.querySelector('[data-testid="resign-start"]');
      const confirm = resignBox.querySelector('[data-testid="resign-confirm"]');
      let resignId = null;
      const ask = (asking) => {
        start.hidden = asking;
        confirm.hidden = !asking;
      };
      start.onclick = () => {
        resignId = uuid4();
        ask(true);
        confirm.querySelector('[data-testid="resign-no"]').focus();
      };
      confirm.querySelector('[data-testid="resign-no"]').onclick = () => { ask(false); start.focus(); };
      confirm.querySelector('[data-testid="resign-yes"]').onclick = async () => {
        showError("");
        try {
          await api(`/api/matches/${matchId}/resign/`, {
            method: "POST", body: JSON.stringify({ expected_seq: headSeq, event_id: resignId }),
          });
        } catch (err) {
          showError(err.message);
          ask(false);
        }
      };
    }

    function showVerdict(verification) {
      const v = verification.verdict;
      setBadge(root.querySelector('[data-testid="verdict"]'), VERDICT_TEXT[v] || v, v);
      // The badge says what the newest verification found; a dispute found before stays final
      // (ratings, seasons, brackets leave the result out), so the page says so, as the replay does.
      const before = root.querySelector('[data-testid="disputed-before"]');
      const earlier = Boolean(verification.disputed_at) && v !== "disputed";
      if (!before) return;
      before.hidden = !earlier;
      if (!earlier) return;
      const when = before.querySelector("time");
      if (when.getAttribute("datetime") === verification.disputed_at) return; // drawn already
      when.setAttribute("datetime", verification.disputed_at);
      when.textContent = verification.disputed_at;
      if (window.LocalTime) window.LocalTime.render(before);
    }

    // The server's error frames ({type: "error", code, detail}) are not updates. After
    // "database_unavailable" the server could not read what this page missed (on connect, on a
    // resync, or for a frame past its window): the board is older than the match until the next
    // update, so the page says so and asks again, each try twice as long after the last (from
    // the server's one resync a second up to 30 s), until an update comes. "throttled" answers a
    // resync within a second of another, whose answer is on its way: only a page still behind
    // asks again. A move made meanwhile would catch the page up too (its frame finds the gap).
    let behind = false;
    let catchUp = null;
    let catchUpDelay = 0;
    function askToCatchUp() {
      if (catchUp !== null) return;
      catchUpDelay = Math.min(catchUpDelay ? catchUpDelay * 2 : 1000, 30000);
      catchUp = setTimeout(() => {
        catchUp = null;
        if (!behind) return;
        if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "resync" }));
        askToCatchUp(); // the next try, should this one's answer be another error (or none)
      }, catchUpDelay);
    }
    function caughtUp() {
      behind = false;
      clearTimeout(catchUp);
      catchUp = null;
      catchUpDelay = 0;
    }
    function serverError(frame) {
      if (frame.code === "database_unavailable") {
        behind = true;
        conn.textContent = "not up to date, retrying…";
        askToCatchUp();
      } else if (frame.code === "throttled" && behind) {
        askToCatchUp();
      }
    }

    function apply(update) {
      if (update.type === "error") {
        serverError(update);
        return;
      }
      if (update.type === "verdict") {
        // A verdict adds no event and changes nothing else on the page: a batch of them (a
        // season's) sends this one small frame per match, not every seat's view (matches/live.py).
        showVerdict(update.verification);
        return;
      }
      // Connected and caught up: an update carries everything after what the page held.
      caughtUp();
      conn.textContent = "live";
      if (update.match.clocks) {
        clockData = { ...update.match.clocks, seats: update.match.seats, live: update.match.status !== "finished" };
        clockBase = performance.now();
        drawClocks();
      }
      for (const e of update.events) lastSeq = Math.max(lastSeq, e.seq);
      headSeq = update.match.head_seq;
      renderLog(logList, update.log, undefined, update.match.seats);
      setBadge(root.querySelector('[data-testid="status"]'), update.match.status === "finished" ? "Finished" : "Live",
        update.match.status);
      showVerdict(update.match.verification);
      if (update.match.status === "finished") root.querySelector("#replay-link").hidden = false;
      for (const s of update.match.seats) {
        // A seat that left (resigned, or out of time) says so beside its name; the others play on.
        const left = root.querySelector(`[data-testid="seat-left"][data-seat="${s.seat}"]`);
        if (!left) continue;
        left.textContent = s.left === "timeout" ? " · out of time" : s.left ? " · resigned" : "";
        left.hidden = !s.left;
      }
      if (resignBox) {
        // Only a seat still in the game may resign (a knocked-out wizard, or one that left, is
        // refused: seat_out_of_game).
        const mine = update.match.seats.find((s) => s.seat === update.match.your_seat);
        resignBox.hidden = update.match.status === "finished" || (mine !== undefined && mine.in_game === false);
      }
      const outcome = root.querySelector("#match-outcome");
      const r = update.match.result;
      if (outcome && r && (r.reason === "timeout" || r.reason === "resigned")) {
        // A loss on time or by resignation ends the match, not the game: the board cannot say it,
        // so the page does.
        const names = (seats) => seats.map((s) => (update.match.seats[s] || {}).label || `seat ${s}`).join(" & ");
        const lost = r.reason === "timeout" ? `${names([r.timed_out])} ran out of time` : `${names([r.resigned])} resigned`;
        outcome.textContent = `${lost}: ${names(r.winners)} win${r.winners.length > 1 ? "" : "s"}.`;
        outcome.hidden = false;
      }
      root.dataset.headSeq = headSeq;
      drawBoard(update);
      root.dispatchEvent(new CustomEvent("match:update", { detail: update }));
    }

    // The head a frame moves to is taken at once (above), so a move clicked during a press is
    // sent against it; the board waits for the click (js/redraw-after-press.js).
    const drawBoard = window.redrawAfterPress(root, (update) => {
      renderChanceEntry(update);
      const focused = focusMark(board);
      if (renderer) renderer.render(board, update.view, { ...ctx, match: update.match, live: true });
      else board.textContent = JSON.stringify(update.view, null, 2);
      refocus(board, focused);
    });

    function connect() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}/ws/matches/${matchId}/?after=${lastSeq}`);
      socket.onopen = () => { retry = 0; conn.textContent = "syncing…"; };
      socket.onmessage = (msg) => apply(JSON.parse(msg.data));
      socket.onclose = (event) => {
        // 4401: the session that opened this seat's page has ended (signed out, expired). The page
        // was drawn for the seat, so it is drawn again for whoever the cookies now say.
        if (event.code === 4401) { conn.textContent = "signed out, reloading…"; location.reload(); return; }
        conn.textContent = "reconnecting…";
        if (behind) { clearTimeout(catchUp); catchUp = null; } // the new socket catches up when it opens
        retry = Math.min(retry + 1, 6);
        // Catches up from lastSeq: nothing missed, nothing twice. The jitter spreads the pages of a
        // restarted server over the interval instead of bringing them all back in the same instant.
        setTimeout(connect, 300 * 2 ** retry * (0.75 + Math.random() / 2));
      };
    }
    connect();
    window.__match = { ctx, get lastSeq() { return lastSeq; }, get socket() { return socket; } };
  }

  function replay(root) {
    const matchId = root.dataset.matchId;
    const head = Number(root.dataset.head);
    const board = root.querySelector("#board");
    const logList = root.querySelector("#log");
    const eventBox = root.querySelector("#event");
    const scrubber = root.querySelector("#scrubber");
    const atLabel = root.querySelector("#at");
    const renderer = renderers[root.dataset.game];
    const seats = JSON.parse(document.getElementById("seats-data").textContent);
    const views = new Map();
    let events = [];
    let at = head;

    async function show(n) {
      const step = Math.max(0, Math.min(head, n));
      at = step;
      scrubber.value = step;
      atLabel.textContent = step;
      if (!views.has(step)) views.set(step, (await api(`/api/matches/${matchId}/state/?at=${step}`)).view);
      if (step !== at) return; // the viewer stepped on while this view loaded: draw only the latest
      const view = views.get(step);
      if (renderer) renderer.render(board, view, { seat: null, live: false, match: { seats } });
      else board.textContent = JSON.stringify(view, null, 2);
      const e = events.find((x) => x.seq === step);
      eventBox.textContent = e
        ? `#${e.seq} ${e.type} by ${e.actor}\n${JSON.stringify(e.data)}\nhash ${e.hash.slice(0, 16)}…`
        : "Before the first event.";
      renderLog(logList, [], step);
    }

    root.querySelectorAll("[data-step]").forEach((b) =>
      b.addEventListener("click", () => {
        const step = b.dataset.step;
        show(step === "first" ? 0 : step === "last" ? head : step === "prev" ? at - 1 : at + 1);
      })
    );
    scrubber.addEventListener("input", () => show(Number(scrubber.value)));
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "ArrowLeft") show(at - 1);
      if (ev.key === "ArrowRight") show(at + 1);
    });
    async function allEvents() {
      // The feed is paged (next_after); a replay wants every event.
      let out = [];
      let after = 0;
      while (after !== null && after !== undefined) {
        const page = await api(`/api/matches/${matchId}/events/?after=${after}&limit=1000`);
        out = out.concat(page.events);
        after = page.next_after;
      }
      return out;
    }

    Promise.all([allEvents(), api(`/api/matches/${matchId}/log/`)]).then(([all, log]) => {
      events = all;
      renderLog(logList, log.log, at, seats);
      logList.querySelectorAll("li").forEach((li) => li.addEventListener("click", () => show(Number(li.dataset.seq))));
      // A viewer who stepped while the events loaded stays where they stepped to, not thrown back to the end.
      show(at);
    });
  }

  window.MatchClient = { live, replay, api, uuid4 };
})();
