// The play page: hold this seat from this tab, poll for the pending decision, send choices.
// A static file (no inline script), so a strict Content-Security-Policy can forbid inline code.
(function () {
  "use strict";
  var root = document.getElementById("play");
  if (!root) return;
  var urls = JSON.parse(root.dataset.urls);
  var csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  var storeKey = "play-tab:" + urls.claim;
  var tab = "";
  var shownTurn = null;
  var sentTurn = null; // answered: a poll that still sees it pending does not offer it again
  var armed = null; // the turn whose board parts take clicks; null: none do
  var stopped = false;
  var resigned = false; // a decision still pending for a moment is not offered again
  var WAIT_MS = 700; // while the bots play: the next decision shows within this
  var HOLD_MS = 1500; // while it is your move: only a heartbeat

  function $(id) { return document.getElementById(id); }
  function say(text) { $("play-status").textContent = text; }

  function stop(message, isError) {
    stopped = true;
    disarm();
    $("play-choices").hidden = true;
    $("play-resign").hidden = true;
    if (isError) {
      $("play-refused").textContent = message;
      $("play-refused").hidden = false;
    } else {
      say(message);
    }
  }

  function send(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (data) { return { status: r.status, data: data }; });
    });
  }

  function showRequest(req) {
    $("play-choices").hidden = false;
    $("play-clock").textContent = "(" + req.seconds_left + " s left)";
    if (req.turn === shownTurn) return;
    shownTurn = req.turn;
    say("Your move.");
    if (req.svg) {
      $("play-board").innerHTML = req.svg; // drawn by the game's own renderer on the server
      $("play-note").hidden = false;
    }
    $("play-obs").textContent = JSON.stringify(req.observation, null, 1);
    $("play-obs-box").hidden = false;
    if (req.text) {
      $("play-text").textContent = req.text;
      $("play-text-box").hidden = false;
    }
    var box = $("play-actions");
    box.textContent = "";
    req.labels.forEach(function (label, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "button play-action";
      b.dataset.index = String(i);
      b.textContent = label;
      b.addEventListener("click", function () { choose(req.turn, i); });
      box.appendChild(b);
    });
    var all = document.createElement("button");
    all.type = "button";
    all.className = "button secondary play-all";
    all.hidden = true;
    all.textContent = "show every choice";
    all.addEventListener("click", function () { narrow(null); });
    box.appendChild(all);
    boardTargets(req);
  }

  // The board takes clicks: each part of the picture that a legal action is about (a market
  // slot, a square, a tile...) chooses that action, or, when several actions share it (how
  // many cards, which rotation), leaves only their buttons.
  function boardTargets(req) {
    armed = req.turn;
    var groups = {};
    (req.targets || []).forEach(function (selector, i) {
      if (selector) (groups[selector] = groups[selector] || []).push(i);
    });
    $("play-board-hint").hidden = Object.keys(groups).length === 0;
    Object.keys(groups).forEach(function (selector) {
      var found;
      try { found = $("play-board").querySelectorAll(selector); } catch (e) { return; }
      found.forEach(function (el) {
        el.classList.add("play-target");
        el.addEventListener("click", function (ev) {
          ev.stopPropagation(); // the innermost part clicked decides
          if (armed !== req.turn) return; // answered, or the game is over
          var indices = groups[selector];
          if (indices.length === 1) choose(req.turn, indices[0]);
          else narrow(indices);
        });
      });
    });
  }

  // Once a decision is answered (or the game is over) nothing on the board is a choice.
  function disarm() {
    armed = null;
    $("play-board").querySelectorAll(".play-target").forEach(function (el) {
      el.classList.remove("play-target");
    });
    $("play-board-hint").hidden = true;
  }

  function narrow(indices) {
    $("play-actions").querySelectorAll("button.play-action").forEach(function (b) {
      b.hidden = indices !== null && indices.indexOf(Number(b.dataset.index)) < 0;
    });
    $("play-actions").querySelector("button.play-all").hidden = indices === null;
    if (indices !== null) say("Choose one of these.");
  }

  function choose(turn, index) {
    var buttons = $("play-actions").querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    disarm();
    sentTurn = turn;
    say("Sent. The others are playing…");
    send(urls.act, { tab: tab, turn: turn, index: index }).then(function (r) {
      $("play-choices").hidden = true;
      if (r.status !== 200) {
        if (r.status === 409 && /another tab/i.test(r.data.detail || "")) {
          stop(r.data.detail, true);
          return;
        }
        say(r.data.detail || "That did not work.");
        sentTurn = shownTurn = null; // still pending (e.g. a lost connection): the next poll offers it again
      }
      later(r.status === 200 ? WAIT_MS / 4 : 0); // a game that is over shows its end
    });
  }

  // The end: the last position drawn for this seat (the final clear-out, the scores) when the
  // worker left it, the result, the replay's link; nothing to click, no Resign, no more polls.
  function finish(result) {
    if (result && result.svg) {
      $("play-board").innerHTML = result.svg; // drawn by the game's own renderer on the server
      $("play-note").hidden = false;
    }
    if (result && result.text) {
      $("play-text").textContent = result.text;
      $("play-text-box").hidden = false;
    }
    $("play-obs-box").hidden = true; // the last decision's: not the end's
    var text = "The game is over.";
    if (result && result.error) text = "The game ended with an error: " + result.error;
    else if (result && result.rank) {
      text = "The game is over: you finished " + ordinal(result.rank) +
        " with " + result.score + " points" + (result.status !== "ok" ? " (" + (result.why || result.status) + ")" : "") + ".";
    }
    stop(text, false);
    $("play-replay").hidden = false;
  }

  function ordinal(n) {
    var s = ["th", "st", "nd", "rd"], v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  }

  // One poll timer at a time: answering a decision polls again at once instead of waiting
  // out the heartbeat interval, so the next decision shows as soon as the bots have played.
  var timer = null;
  function later(ms) {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  function poll() {
    timer = null;
    if (stopped) return;
    fetch(urls.state + "?tab=" + encodeURIComponent(tab), { credentials: "same-origin" })
      .then(function (r) {
        return r.json().then(function (data) { return { status: r.status, data: data }; });
      })
      .then(function (r) {
        if (r.status !== 200) { stop(r.data.detail || "This page lost its seat.", true); return; }
        var s = r.data;
        if (s.result) { finish(s.result); return; }
        var fresh = s.request && !resigned && s.request.turn !== sentTurn;
        if (fresh) { showRequest(s.request); later(HOLD_MS); return; }
        $("play-choices").hidden = true;
        if (!resigned) {
          say(s.status === "queued" ? "Waiting for a worker to start the game…" : "The others are playing…");
        }
        later(WAIT_MS);
      })
      .catch(function () { later(HOLD_MS); });
  }

  $("play-resign").addEventListener("click", function () {
    send(urls.resign, { tab: tab }).then(function (r) {
      if (r.status !== 200) { say(r.data.detail || "That did not work."); later(0); return; }
      disarm();
      $("play-choices").hidden = true;
      $("play-resign").hidden = true;
      resigned = true;
      say("You resigned. The others play on to the end…");
      later(0);
    });
  });

  send(urls.claim, { tab: sessionStorage.getItem(storeKey) || "" }).then(function (r) {
    if (r.status !== 200) { stop(r.data.detail || "You cannot play this seat here.", true); return; }
    tab = r.data.tab;
    sessionStorage.setItem(storeKey, tab);
    poll();
  });
})();
