// The challenge form's opponent picker: once as many bots are ticked as the table has seats
// left, the other boxes are disabled until one is unticked, and the count is said (a polite
// live region). Without this script the server refuses a choice past the limit, with why.
(function () {
  "use strict";
  document.querySelectorAll("[data-picker]").forEach(function (picker) {
    var max = parseInt(picker.getAttribute("data-max"), 10);
    var min = parseInt(picker.getAttribute("data-min") || "0", 10);
    var count = picker.querySelector("[data-picker-count]");
    var boxes = Array.prototype.slice.call(picker.querySelectorAll('input[type="checkbox"]'));
    function update() {
      var chosen = boxes.filter(function (b) { return b.checked; }).length;
      boxes.forEach(function (b) { b.disabled = !b.checked && chosen >= max; });
      count.textContent = chosen + " of " + max + " chosen" +
        (chosen >= max ? ": the table is full (untick one to choose another)."
          : chosen < min ? " (choose at least " + min + ")." : ".");
    }
    boxes.forEach(function (b) { b.addEventListener("change", update); });
    update();
  });
})();
