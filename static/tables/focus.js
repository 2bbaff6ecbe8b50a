/* After one's own roll, focus moves to the result (issue 14).
 *
 * A roll's answer (Momenta: POST …/momenta/roll/, 2d20: POST …/d20/roll/) carries
 * the new log entry as <div hx-swap-oob="afterbegin:#roll-log"><li id="event-N">.
 * Once htmx has settled the answer, that entry (focusable: tabindex="-1") takes the
 * focus, so a screen reader reads the result and a keyboard user goes on from it,
 * instead of from <body> (the Roll button was redrawn). A refused roll brings no
 * entry: focus stays where htmx left it, by the error.
 *
 * The same for older log entries asked for: focus goes to the first that came.
 */
(function () {
  "use strict";

  var ROLL = /\/(momenta|d20)\/roll\/$/;
  var ENTRY = /hx-swap-oob="afterbegin:#roll-log"[^>]*>\s*<li\b[^>]*\bid="(event-\d+)"/;

  document.body.addEventListener("htmx:afterSettle", function (e) {
    var config = e.detail.requestConfig;
    if (!config || config.verb !== "post" || !ROLL.test(config.path || "")) return;
    var found = ENTRY.exec((e.detail.xhr && e.detail.xhr.responseText) || "");
    var entry = found && document.getElementById(found[1]);
    if (!entry) return;
    entry.focus();
    // The roller's own screen shows the moment too; the focused entry is read, so no announcement.
    if (window.momentaStage) window.momentaStage.show(entry);
  });

  // Older log entries (log_more.html) land in #roll-log-older; the "Older entries"
  // button that had the focus is redrawn, so focus goes to the first entry that came.
  var olderBefore = 0;
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "roll-log-older") {
      olderBefore = e.detail.target.children.length;
    }
  });
  document.body.addEventListener("htmx:afterSettle", function (e) {
    var older = document.getElementById("roll-log-older");
    if (!older || e.detail.target !== older) return;
    var first = older.children[olderBefore];
    if (first) first.focus();
  });
})();
