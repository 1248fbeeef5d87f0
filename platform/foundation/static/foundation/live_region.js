// A live part of a page follows what it shows without a reload: an element with an id,
// data-live, data-status-url and data-stamp. Every two seconds it asks the small status.json;
// when the stamp there differs from the one the part shows, it fetches the page again and
// swaps in that part. When the fresh part no longer says data-live (the tournament or match
// has ended), polling stops and a "live-ended" event goes up from the part, for a page that
// has more to start then (the match page's replay viewer). Used by the tournament page and a
// queued or running match's page. A static file: the CSP forbids inline code.
(function () {
  "use strict";
  var POLL_MS = 2000;

  function follow(region) {
    var statusUrl = region.getAttribute("data-status-url");

    function redraw() {
      return fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(region.id);
          if (!fresh) return;
          region.innerHTML = fresh.innerHTML;
          region.setAttribute("data-stamp", fresh.getAttribute("data-stamp"));
          if (!fresh.hasAttribute("data-live")) {
            region.removeAttribute("data-live");
            region.dispatchEvent(new CustomEvent("live-ended", { bubbles: true }));
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
  }

  document.querySelectorAll("[id][data-live][data-status-url]").forEach(follow);
})();
