/* The turn tracker's per-person parts (issue 24). The tracker is pushed once per
 * audience, so after each swap this shows what is the viewer's own: the "your turn"
 * line and the end-turn button of a character they play (data-turn-owner), and says
 * "your turn" once in the polite live region #turn-announcer. All words come from the
 * server (translated there): nothing here is shown to a person in English. */
(function () {
  "use strict";
  var lastSaid = "";

  function apply() {
    var tracker = document.getElementById("turn-tracker");
    var announcer = document.getElementById("turn-announcer");
    if (!tracker || !announcer) return;
    var me = announcer.dataset.me;
    tracker.querySelectorAll("[data-turn-owner]").forEach(function (el) {
      el.hidden = el.dataset.turnOwner !== me;
    });
    var yours = tracker.querySelector(".turn-yours");
    var key = tracker.dataset.round + "/" + tracker.dataset.acting;
    if (yours && !yours.hidden) {
      if (key !== lastSaid) announcer.textContent = yours.textContent.trim();
      lastSaid = key;
    } else {
      lastSaid = "";
      announcer.textContent = "";
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var tracker = document.getElementById("turn-tracker");
    if (tracker) lastSaid = tracker.dataset.round + "/" + tracker.dataset.acting;
    apply();
  });
  document.body.addEventListener("htmx:oobAfterSwap", apply);
  document.body.addEventListener("htmx:afterSwap", apply);
})();
