// The tournament page follows a starting or running tournament without a reload: it polls
// the small status.json and, when the stamp of what the page shows changes, fetches the page
// again and swaps in its live part (status, progress, standings, matches).
(function () {
  "use strict";
  var POLL_MS = 2000;
  var region = document.getElementById("tournament-live");
  if (!region || !region.hasAttribute("data-live")) return;
  var statusUrl = region.getAttribute("data-status-url");

  function redraw() {
    return fetch(window.location.href, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("tournament-live");
        if (!fresh) return;
        region.innerHTML = fresh.innerHTML;
        region.setAttribute("data-stamp", fresh.getAttribute("data-stamp"));
        if (!fresh.hasAttribute("data-live")) region.removeAttribute("data-live");
      });
  }

  function poll() {
    fetch(statusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (s) {
        if (s.stamp !== region.getAttribute("data-stamp")) return redraw();
      })
      .catch(function () { /* a missed poll (network, restart): the next one catches up */ })
      .then(function () {
        if (region.hasAttribute("data-live")) window.setTimeout(poll, POLL_MS);
      });
  }

  window.setTimeout(poll, POLL_MS);
})();
