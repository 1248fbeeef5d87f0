// A queued or running match's page follows the match to its end without a reload, as the
// tournament page follows its matches: it polls the small status.json and, when the stamp of
// what the page shows changes (a new status), fetches the page again and swaps in its live
// part (status, seats, result, replay). When the match has ended, the swapped-in part holds
// the replay viewer, whose script is then loaded (a script file of the site: the CSP allows
// it, as it forbids inline code).
(function () {
  "use strict";
  var POLL_MS = 2000;
  var region = document.getElementById("match-live");
  if (!region || !region.hasAttribute("data-live")) return;
  var statusUrl = region.getAttribute("data-status-url");

  function startViewer() {
    if (!document.getElementById("replay") || document.querySelector("script[data-viewer]")) return;
    var script = document.createElement("script");
    script.src = region.getAttribute("data-viewer-script");
    script.setAttribute("data-viewer", "");
    document.body.appendChild(script);
  }

  function redraw() {
    return fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("match-live");
        if (!fresh) return;
        region.innerHTML = fresh.innerHTML;
        region.setAttribute("data-stamp", fresh.getAttribute("data-stamp"));
        if (!fresh.hasAttribute("data-live")) {
          region.removeAttribute("data-live");
          startViewer();
        }
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
