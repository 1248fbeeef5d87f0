// The replay viewer of the match page. A static file with no inline code, so it runs under a
// strict Content-Security-Policy (script-src 'self'): its data comes from data- attributes
// and a json_script block, its handlers are attached here.
//
// Each step (the position after one decision) is fetched once from
// /matches/<id>/steps/<n>.json[?seat=k], where the server re-simulates the state, and kept in
// a cache; the next steps are fetched ahead, so playing a long match never waits on the
// server and never asks for a step twice. A step whose decision ended a round carries the
// position just before the next deal (round_end), shown as a frame of its own.
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const total = Number(root.dataset.total);
  const stepUrl = root.dataset.urlTemplate; // ends in "/0.json"
  const seatNames = JSON.parse(document.getElementById("seat-names").textContent);
  const slider = root.querySelector("input[type=range]");
  const playButton = root.querySelector('[data-go="play"]');
  const speed = root.querySelector('[data-field="speed"]');
  const seatSelect = root.querySelector('[data-field="seat-select"]');
  const seatPanel = root.querySelector('[data-field="seat-view"]');
  const seatRows = document.querySelectorAll("table.seats tr[data-seat]");
  const field = (name) => root.querySelector('[data-field="' + name + '"]');

  const cache = new Map(); // "n|seat" -> Promise of the step's JSON
  const CACHE_LIMIT = 400;
  let current = 0; // the step shown
  let frame = "deal"; // "end": the round-end position of step `current`; "deal": the step
  const known = new Map(); // step -> whether it has a round-end frame, once loaded
  // Where the viewer is going: moves count from here, so fast key presses add up even
  // before the steps they pass arrive.
  let target = {n: 0, frame: "deal"};
  let token = 0; // the latest navigation; older answers are dropped
  let player = null;
  // The picture on screen, as "step|frame|seat": the server drew step 0 with no seat view,
  // so the first load does not redraw it (a redraw replaces the element under the reader).
  let drawn = "0|deal|";

  function seat() {
    return seatSelect && seatSelect.value !== "" ? seatSelect.value : "";
  }

  function load(n) {
    const key = n + "|" + seat();
    if (!cache.has(key)) {
      let url = stepUrl.replace(/0\.json$/, n + ".json");
      if (seat() !== "") url += "?seat=" + encodeURIComponent(seat());
      const request = fetch(url).then(function (r) {
        return r.json().then(function (data) {
          if (!r.ok && !data.error) data.error = "The server answered " + r.status + ".";
          if (data.error) cache.delete(key); // asking again may work later
          return data;
        });
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

  function text(value) {
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  function picture(key, svg, stateText, note) {
    const figure = field("svg");
    if (figure && key !== drawn) {
      drawn = key;
      if (svg) {
        // The SVG comes from the game's own renderer on our server (all text XML-escaped,
        // no scripts, no external references), so inserting it as markup is acceptable.
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
    for (const [i, a] of (view.legal_actions || []).entries()) {
      const li = document.createElement("li");
      li.textContent = JSON.stringify(a);
      legal.appendChild(li);
    }
    legal.hidden = !view.to_act;
  }

  function show(data, which) {
    current = data.step;
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
    field("ms").textContent = d && typeof d.ms === "number" ? Number(d.ms.toPrecision(3)) + " ms" : "–";
    const fault = field("fault");
    fault.textContent = d && d.fault ? d.fault + (d["default"] ? " (default played)" : "") : (d && d["default"] ? "default played" : "none");
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
    enableButtons();
  }

  function enableButtons() {
    const atStart = current === 0;
    const atEnd = current === total && frame === "deal";
    root.querySelector('[data-go="first"]').disabled = atStart;
    root.querySelector('[data-go="prev"]').disabled = atStart && frame === "deal";
    root.querySelector('[data-go="next"]').disabled = atEnd;
    root.querySelector('[data-go="last"]').disabled = atEnd;
  }

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
  go(0, "deal");
})();
