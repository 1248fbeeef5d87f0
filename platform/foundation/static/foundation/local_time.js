// Times in the viewer's zone. The server writes every moment in UTC:
//  - <time datetime="2026-12-01T20:30:00Z" data-local>2026-12-01 20:30 UTC</time>
//    ({% local_time dt %}) is rewritten as "2026-12-01 21:30 CET" in the browser's zone,
//    the UTC text kept as its title; parts swapped in later (live regions) are done too;
//  - a LocalDateTimeField's <input type=datetime-local> followed by its hidden
//    <input name=tz data-local-tz> holds a value written in that zone: a UTC value is
//    rewritten in the browser's zone and tz names that zone, which the server reads the posted
//    value in. A value written in another zone (a form shown again after an error) is kept
//    with its zone: the pair stays true either way.
// A static file loaded by the base template: the CSP forbids inline code.
(function () {
  "use strict";
  var zone = "UTC";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch (e) { /* no Intl: the page stays in UTC */ }

  // Digits in ASCII whatever the locale; the zone's short name in the viewer's own language.
  var numbers = new Intl.DateTimeFormat("en-US", {
    timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit",
    hour: "2-digit", minute: "2-digit", hourCycle: "h23", numberingSystem: "latn"
  });
  var names = new Intl.DateTimeFormat(undefined, { timeZone: zone, timeZoneName: "short" });

  function part(parts, type) {
    for (var i = 0; i < parts.length; i++) if (parts[i].type === type) return parts[i].value;
    return "";
  }

  function wall(date) {  // "2026-12-01T21:30" in the viewer's zone
    var p = numbers.formatToParts(date);
    var hour = part(p, "hour") === "24" ? "00" : part(p, "hour");
    return part(p, "year") + "-" + part(p, "month") + "-" + part(p, "day") + "T" + hour +
      ":" + part(p, "minute");
  }

  function showTime(el) {
    var date = new Date(el.getAttribute("datetime"));
    if (isNaN(date.getTime())) return;
    if (!el.title) el.title = el.textContent;
    el.textContent = wall(date).replace("T", " ") + " " +
      part(names.formatToParts(date), "timeZoneName");
    el.setAttribute("data-local-shown", zone);
  }

  function fillZone(tz) {
    var input = tz.previousElementSibling;
    if (tz.value !== "UTC" || zone === "UTC") return;
    if (input && input.type === "datetime-local" && input.value) {
      var date = new Date(input.value + "Z");
      if (isNaN(date.getTime())) return;  // unreadable: left in UTC, and tz says so
      input.value = wall(date);
    }
    tz.value = zone;
  }

  function update(root) {
    root.querySelectorAll("time[data-local]:not([data-local-shown])").forEach(showTime);
    root.querySelectorAll("input[data-local-tz]").forEach(fillZone);
  }

  update(document);
  new MutationObserver(function (changes) {
    changes.forEach(function (c) {
      c.addedNodes.forEach(function (n) { if (n.nodeType === 1) update(n.parentNode || n); });
    });
  }).observe(document.body, { childList: true, subtree: true });
})();
