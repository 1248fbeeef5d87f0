// A queued or running match's page follows the match to its end without a reload
// (foundation/live_region.js swaps in the page's live part as the match's status changes).
// When the match has ended, the swapped-in part holds the replay viewer, whose script is then
// loaded (a script file of the site: the CSP allows it, as it forbids inline code).
(function () {
  "use strict";
  var region = document.getElementById("match-live");
  if (!region) return;

  region.addEventListener("live-ended", function () {
    if (!document.getElementById("replay") || document.querySelector("script[data-viewer]")) return;
    var script = document.createElement("script");
    script.src = region.getAttribute("data-viewer-script");
    script.setAttribute("data-viewer", "");
    document.body.appendChild(script);
  });
})();
