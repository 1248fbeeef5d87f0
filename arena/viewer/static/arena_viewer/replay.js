// The replay viewer: one script for the site's match page and for the offline file that
// `arena replay view` writes (arena/viewer/). No inline code, so on the site it runs under a
// strict Content-Security-Policy (script-src 'self'): its data comes from data- attributes and
// JSON blocks, its handlers are attached here.
//
// Steps come from a "step source": on the site each step (the position after one decision) is
// fetched once from /matches/<id>/steps/<n>.json[?seat=k], where the server re-simulates the
// state, and kept in a cache; the next steps are fetched ahead, so playing a long match never
// waits on the server and never asks for a step twice. In the offline file every step is
// embedded in the page, in parts (gzip, base64) unpacked as the viewer reaches them. A step
// whose decision ended a round carries the position just before the next deal (round_end),
// shown as a frame of its own.
//
// Logs: the owner of a seat (on the site: /matches/<id>/logs.json; in the file: the replay's
// own logs) sees, for the step on screen, the lines its bot wrote during that decision.
// Deep links: #step=N[&seat=K] opens the viewer at step N, as seat K saw it.
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const total = Number(root.dataset.total);
  const info = JSON.parse(document.getElementById("replay-seats").textContent);
  const seatNames = info.names || {};
  const seatFaults = info.faults || {};
  const slider = root.querySelector("input[type=range]");
  const playButton = root.querySelector('[data-go="play"]');
  const speed = root.querySelector('[data-field="speed"]');
  const seatSelect = root.querySelector('[data-field="seat-select"]');
  const seatPanel = root.querySelector('[data-field="seat-view"]');
  const logPanel = root.querySelector('[data-field="logs"]');
  const seatRows = document.querySelectorAll("table.seats tr[data-seat]");
  const field = (name) => root.querySelector('[data-field="' + name + '"]');

  // ---- Step sources: each returns, for (n, seat), a Promise of the step's JSON ----------

  function fetchedSteps(template) { // template ends in "/0.json"
    return function (n, seat) {
      let url = template.replace(/0\.json$/, n + ".json");
      if (seat !== "") url += "?seat=" + encodeURIComponent(seat);
      return fetch(url).then(function (r) {
        return r.json().then(function (data) {
          if (!r.ok && !data.error) data.error = "The server answered " + r.status + ".";
          return data;
        });
      });
    };
  }

  function gunzipBase64(text) {
    const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }

  // {"part_steps": P, "total": N, "parts": [base64 of gzip of [steps, seat views], ...]}:
  // a part is unpacked when a step of it is asked for, and a few are kept.
  function embeddedSteps(block) {
    if (typeof DecompressionStream === "undefined") {
      const error = "This browser cannot unpack the steps in this file (it needs DecompressionStream: " +
        "Chromium 80, Firefox 113, Safari 16.4 or later).";
      return function () { return Promise.resolve({error: error}); };
    }
    const packed = JSON.parse(block.textContent);
    const parts = new Map(); // part index -> Promise of its rows
    function part(i) {
      if (!parts.has(i)) {
        parts.set(i, gunzipBase64(packed.parts[i]).then(JSON.parse));
        if (parts.size > 4) parts.delete(parts.keys().next().value);
      }
      return parts.get(i);
    }
    return function (n, seat) {
      if (!(n >= 0 && n < packed.total)) {
        return Promise.resolve({error: "Step " + n + " is outside 0.." + (packed.total - 1) + "."});
      }
      const i = Math.floor(n / packed.part_steps);
      return part(i).then(function (rows) {
        const k = n - i * packed.part_steps;
        return Object.assign({}, rows[0][k], {seat_view: seat === "" ? null : rows[1][k][Number(seat)]});
      });
    };
  }

  const embedded = document.getElementById("replay-steps");
  const source = root.dataset.urlTemplate ? fetchedSteps(root.dataset.urlTemplate) : embeddedSteps(embedded);

  // ---- Log source: {"seats": {"<seat>": {"text", "marks": [[turn, start, end], ...]}}} -----

  function loadLogs() {
    if (root.dataset.logsUrl) {
      return fetch(root.dataset.logsUrl, {credentials: "same-origin"}).then(function (r) {
        return r.ok ? r.json() : {seats: {}};
      });
    }
    const block = document.getElementById("replay-logs");
    return Promise.resolve(block ? JSON.parse(block.textContent) : {seats: {}});
  }

  let logs = {}; // seat -> {text, marks, chars}; empty: no logs panel
  const cache = new Map(); // "n|seat" -> Promise of the step's JSON
  const CACHE_LIMIT = 400;
  let current = 0; // the step shown
  let shownData = null; // its JSON
  let frame = "deal"; // "end": the round-end position of step `current`; "deal": the step
  const known = new Map(); // step -> whether it has a round-end frame, once loaded
  // Where the viewer is going: moves count from here, so fast key presses add up even
  // before the steps they pass arrive.
  let target = {n: 0, frame: "deal"};
  let token = 0; // the latest navigation; older answers are dropped
  let player = null;
  let hashTimer = null;
  // The picture on screen, as "step|frame|seat": the page drew step 0 with no seat view,
  // so the first load does not redraw it (a redraw replaces the element under the reader).
  let drawn = "0|deal|";

  function seat() {
    return seatSelect && seatSelect.value !== "" ? seatSelect.value : "";
  }

  function load(n) {
    const key = n + "|" + seat();
    if (!cache.has(key)) {
      const request = source(n, seat()).then(function (data) {
        if (data.error) cache.delete(key); // asking again may work later
        return data;
      }, function (err) {
        cache.delete(key);
        throw err;
      });
      cache.set(key, request);
      if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value);
    }
    return cache.get(key);
  }

  function prefetch(n) {
    const ahead = player ? 12 : 3;
    for (let k = n + 1; k <= Math.min(total, n + ahead); k++) load(k).catch(function () {});
  }

  // ---- Drawing ---------------------------------------------------------------------------

  function text(value) {
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  function picture(key, svg, stateText, note) {
    const figure = field("svg");
    if (figure && key !== drawn) {
      drawn = key;
      if (svg) {
        // The SVG comes from the game's own renderer (all text XML-escaped, no scripts, no
        // external references), so inserting it as markup is acceptable.
        figure.innerHTML = svg;
      } else {
        const p = document.createElement("p");
        p.className = "muted small";
        p.textContent = "No picture for this step; the position as text is below.";
        figure.replaceChildren(p);
      }
    }
    if (field("state") && stateText !== null && stateText !== undefined) {
      field("state").textContent = stateText;
    }
    const banner = field("frame");
    banner.textContent = note;
    banner.hidden = !note;
  }

  function showSeatView(view) {
    if (!seatPanel) return;
    seatPanel.hidden = !view;
    if (!view) return;
    const name = seatNames[view.seat] ? " · " + seatNames[view.seat] : "";
    field("seat-title").textContent = "Seat " + view.seat + name;
    field("seat-to-act").textContent = view.to_act
      ? "This seat owes the next decision; it was offered " + view.legal_actions.length + " legal action(s):"
      : "Another seat owes the next decision (or the match is over).";
    // one field per line, each value compact: readable without scrolling through lists
    const lines = Object.keys(view.observation).map(
      (k) => " " + JSON.stringify(k) + ": " + JSON.stringify(view.observation[k]));
    field("observation").textContent = "{\n" + lines.join(",\n") + "\n}";
    const legal = field("legal-actions");
    legal.replaceChildren();
    for (const a of view.legal_actions || []) {
      const li = document.createElement("li");
      li.textContent = JSON.stringify(a);
      legal.appendChild(li);
    }
    legal.hidden = !view.to_act;
  }

  function faultText(d) {
    if (!d || !d.fault) return d && d["default"] ? "default played" : "none";
    const found = (seatFaults[d.seat] || []).find((f) => f.turn === d.turn && f.kind === d.fault);
    const detail = found && found.detail ? ": " + found.detail : "";
    return d.fault + detail + (d["default"] ? " (default played)" : "");
  }

  function milliseconds(d) {
    return d && typeof d.ms === "number" ? Number(d.ms.toPrecision(3)) + " ms" : "–";
  }

  // The seat's lines for decision `d`: Python offsets count code points, JS strings count
  // UTF-16 units, so the text is sliced as an array of code points (made once per seat).
  function linesOf(entry, d) {
    const mark = (entry.marks || []).find((m) => m[0] === d.turn);
    if (!mark) return null;
    if (!entry.chars) entry.chars = Array.from(entry.text || "");
    return entry.chars.slice(mark[1], mark[2]).join("");
  }

  function showLogs(d) {
    if (!logPanel || !Object.keys(logs).length) return;
    logPanel.hidden = false;
    const entry = d ? logs[d.seat] : null;
    const name = d && seatNames[d.seat] ? " · " + seatNames[d.seat] : "";
    field("log-title").textContent = d ? "Seat " + d.seat + name + ", decision #" + d.turn : "Before the first decision";
    field("log-ms").textContent = milliseconds(d);
    const fault = field("log-fault");
    fault.textContent = faultText(d);
    fault.className = d && d.fault ? "fault" : "";
    const out = field("log-lines");
    const whole = field("log-whole");
    if (!d || !entry) {
      out.textContent = d ? "No log of seat " + d.seat + " here: only a bot's owner sees its log, and built-in bots write none."
        : "Lines written before the first answer belong to a seat's first decision.";
      whole.hidden = true;
      return;
    }
    const lines = linesOf(entry, d);
    out.textContent = lines === null || lines === "" ? "(nothing written during this decision)" : lines;
    whole.hidden = !entry.text;
    field("log-whole-text").textContent = entry.text || "";
  }

  function show(data, which) {
    current = data.step;
    shownData = data;
    frame = which === "end" && data.round_end ? "end" : "deal";
    slider.value = current;
    field("step").textContent = current;
    if (frame === "end") {
      picture(current + "|end|" + seat(), data.round_end.svg, data.round_end.state_text,
        "End of round " + data.round_end.round + ": the position before the next deal.");
    } else {
      picture(current + "|deal|" + seat(), data.svg, data.state_text, "");
    }
    const d = data.decision;
    field("turn").textContent = d ? "#" + d.turn : "before the first decision";
    const seatCell = field("seat");
    seatCell.replaceChildren();
    if (d) {
      const dot = document.createElement("span");
      dot.className = "seat-dot seat-" + d.seat;
      seatCell.append(dot, d.seat + (seatNames[d.seat] ? " · " + seatNames[d.seat] : ""));
    } else {
      seatCell.textContent = "–";
    }
    seatRows.forEach((row) => row.classList.toggle("acting", !!d && row.dataset.seat === String(d.seat)));
    field("action").textContent = d ? JSON.stringify(d.action) : "–";
    field("ms").textContent = milliseconds(d);
    const fault = field("fault");
    fault.textContent = faultText(d);
    fault.className = d && d.fault ? "fault" : "";
    field("log").textContent = d && d.log ? d.log : "–";
    const events = field("events");
    events.replaceChildren();
    for (const line of data.event_lines || []) {
      const li = document.createElement("li");
      li.textContent = text(line);
      events.appendChild(li);
    }
    showSeatView(data.seat_view);
    showLogs(d);
    enableButtons();
    remember();
  }

  function enableButtons() {
    const atStart = current === 0;
    const atEnd = current === total && frame === "deal";
    root.querySelector('[data-go="first"]').disabled = atStart;
    root.querySelector('[data-go="prev"]').disabled = atStart && frame === "deal";
    root.querySelector('[data-go="next"]').disabled = atEnd;
    root.querySelector('[data-go="last"]').disabled = atEnd;
  }

  // ---- Navigation -------------------------------------------------------------------------

  // Shows step n (its round-end frame first when `which` is "end"); resolves when drawn.
  function go(n, which) {
    n = Math.max(0, Math.min(total, n));
    target = {n: n, frame: which};
    const mine = ++token;
    slider.value = n;
    field("step").textContent = n;
    return load(n).then(function (data) {
      if (!data.error) known.set(n, !!data.round_end);
      if (mine !== token) return false; // a newer step was asked for meanwhile
      field("problem").textContent = data.error || "";
      if (data.error) return false;
      show(data, which);
      prefetch(n);
      return true;
    }, function () {
      if (mine === token) field("problem").textContent = "Could not load this step; try again.";
      return false;
    });
  }

  function forward() {
    // "end" means: the round-end frame if this step has one, else the step itself
    if (target.frame === "end" && known.get(target.n)) return go(target.n, "deal");
    if (target.n >= total) return Promise.resolve(false);
    return go(target.n + 1, "end");
  }

  function backward() {
    const hasEnd = known.get(target.n);
    if (target.frame === "deal" && hasEnd) return go(target.n, "end");
    if (target.n <= 0) return Promise.resolve(false);
    return go(target.n - 1, "deal");
  }

  function stop() {
    clearTimeout(player);
    player = null;
    playButton.textContent = "Play";
    remember();
  }

  function tick() {
    forward().then(function (moved) {
      if (!player) return;
      if (!moved || (current >= total && frame === "deal")) return stop();
      player = setTimeout(tick, Number(speed.value));
    });
  }

  function togglePlay() {
    if (player) return stop();
    playButton.textContent = "Pause";
    player = setTimeout(function () {
      if (current >= total && frame === "deal") go(0, "deal").then(tick);
      else tick();
    }, 0);
  }

  // ---- Deep links: #step=N[&seat=K] --------------------------------------------------------

  let linked = false; // the address names a step: keep it in step with the viewer

  function fromHash() {
    const wanted = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (!wanted.has("step")) return null;
    linked = true;
    const k = wanted.get("seat");
    if (seatSelect && k !== null && seatSelect.querySelector('option[value="' + CSS.escape(k) + '"]')) {
      seatSelect.value = k;
    }
    const n = parseInt(wanted.get("step"), 10);
    return Number.isFinite(n) ? n : 0;
  }

  // The address follows the step on screen once a link named one, or the reader moved:
  // replaceState (no new history entry), and not on every step while playing fast.
  function remember() {
    clearTimeout(hashTimer);
    if (player || !shownData) return;
    hashTimer = setTimeout(function () {
      if (!linked && current === 0 && seat() === "") return;
      const hash = "#step=" + current + (seat() !== "" ? "&seat=" + seat() : "");
      if (location.hash === hash) return;
      try { history.replaceState(null, "", hash); } catch (e) { /* file:// may refuse */ }
    }, 300);
  }

  window.addEventListener("hashchange", function () {
    const n = fromHash();
    if (n === null) return;
    stop();
    go(n, "deal");
    root.scrollIntoView({block: "start"});
  });

  // ---- Controls ----------------------------------------------------------------------------

  root.addEventListener("click", function (ev) {
    const how = ev.target.closest("[data-go]");
    if (!how) return;
    if (how.dataset.go === "play") return togglePlay();
    stop();
    if (how.dataset.go === "next") return forward();
    if (how.dataset.go === "prev") return backward();
    go({first: 0, last: total}[how.dataset.go], "deal");
  });
  slider.addEventListener("input", function () { stop(); go(Number(slider.value), "deal"); });
  if (seatSelect) {
    seatSelect.addEventListener("change", function () { go(current, frame); });
  }
  document.addEventListener("keydown", function (ev) {
    const t = ev.target;
    if ((t.tagName === "INPUT" && t !== slider) || t.tagName === "TEXTAREA" || t.tagName === "SELECT") return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === "ArrowRight") { stop(); forward(); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { stop(); backward(); ev.preventDefault(); }
    else if (ev.key === "Home") { stop(); go(0, "deal"); ev.preventDefault(); }
    else if (ev.key === "End") { stop(); go(total, "deal"); ev.preventDefault(); }
    else if (ev.key === " " && t.tagName !== "BUTTON") { togglePlay(); ev.preventDefault(); }
  });

  loadLogs().then(function (found) {
    for (const [k, entry] of Object.entries((found && found.seats) || {})) {
      if (entry && (entry.text || (entry.marks || []).length)) logs[k] = entry;
    }
    if (shownData) showLogs(shownData.decision);
  }, function () { /* no logs: no panel */ });
  go(fromHash() || 0, "deal");
})();
