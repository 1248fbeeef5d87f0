// "Copy embed code" on a tournament's page: copies the frame's HTML from its text box. One
// listener on the document, so it keeps working when the live part of the page is redrawn.
// A static file: the CSP forbids inline code.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-copy]") : null;
    if (!button) return;
    var box = document.getElementById(button.getAttribute("data-copy"));
    if (!box) return;
    box.select();
    var done = function () {
      var note = button.parentNode.querySelector("[data-copied]");
      if (note) note.hidden = false;
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(box.value).then(done, function () {
        document.execCommand("copy"); done();
      });
    } else {
      document.execCommand("copy"); done();
    }
  });
})();
