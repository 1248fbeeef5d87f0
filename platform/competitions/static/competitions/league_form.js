// The league form: when the game changes, the players field follows it (its range, its help
// and, unless the organiser typed another number, the game's default table size).
(function () {
  "use strict";
  var game = document.getElementById("id_game");
  var players = document.getElementById("id_players_per_match");
  if (!game || !players) return;
  var help = document.getElementById("id_players_per_match_helptext");

  function chosen() { return game.options[game.selectedIndex]; }
  var lastDefault = chosen() ? chosen().getAttribute("data-default") : null;

  function follow(keepValue) {
    var option = chosen();
    if (!option || !option.hasAttribute("data-default")) return;
    var typed = players.value !== "" && players.value !== lastDefault;
    players.min = option.getAttribute("data-min");
    players.max = option.getAttribute("data-max");
    var value = Number(players.value);
    if (!keepValue && (!typed || value < Number(players.min) || value > Number(players.max))) {
      players.value = option.getAttribute("data-default");
    }
    lastDefault = option.getAttribute("data-default");
    if (help) help.textContent = option.getAttribute("data-label");
  }

  game.addEventListener("change", function () { follow(false); });
  follow(true); // a form sent back with an error keeps what the organiser typed
})();
