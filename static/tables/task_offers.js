/* A resolved 2d20 test's "Count toward <task>" buttons (issue 37). The card is pushed
 * once per audience, so on the players' copy they are drawn hidden with the owner's
 * id (data-owner); this shows them to that person only (#table data-person). The
 * server still refuses anyone else. */
(function () {
  "use strict";

  function apply() {
    var table = document.getElementById("table");
    if (!table) return;
    var me = table.dataset.person;
    table.querySelectorAll(".d20-task-offers[data-owner]").forEach(function (el) {
      el.hidden = el.dataset.owner !== me;
    });
  }

  document.addEventListener("DOMContentLoaded", apply);
  document.body.addEventListener("htmx:oobAfterSwap", apply);
  document.body.addEventListener("htmx:afterSwap", apply);
})();
