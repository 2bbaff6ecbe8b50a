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

  // Any other form whose answer redraws it (table talk's Send, the GM tools, a 2d20
  // test's "Done"): the control that had the focus is gone with the old markup, and
  // focus would fall to <body>, the top of the page (issue 29). So it goes back to the
  // same control in the new markup (same id, or the same form action and button), else
  // to the answer's message (an error or a notice), else to the redrawn region itself.
  var kept = null;
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    var active = document.activeElement;
    var target = e.detail.target;
    kept = null;
    if (!active || active === document.body || !target || !target.contains(active)) return;
    var form = active.form || active.closest("form");
    kept = {
      target: target.id,
      id: active.id,
      action: form && form.getAttribute("action"),
      name: active.getAttribute("name"),
      value: active.getAttribute("value"),
    };
  });
  function found(k) {
    if (k.id && document.getElementById(k.id)) return document.getElementById(k.id);
    var form = k.action && document.querySelector('form[action="' + CSS.escape(k.action) + '"]');
    if (form) {
      var same = k.name && form.querySelector('[name="' + CSS.escape(k.name) + '"]' + (k.value !== null ? '[value="' + CSS.escape(k.value) + '"]' : ""));
      return same || form.querySelector("button[type=submit], button:not([type])") || null;
    }
    var region = k.target && document.getElementById(k.target);
    if (!region) return null;
    var message = region.querySelector("[role=alert], [role=status], .error, .notice");
    if (message && !message.hasAttribute("tabindex")) message.setAttribute("tabindex", "-1");
    if (message) return message;
    if (!region.hasAttribute("tabindex")) region.setAttribute("tabindex", "-1");
    return region;
  }
  document.body.addEventListener("htmx:afterSettle", function () {
    var k = kept;
    kept = null;
    var active = document.activeElement;
    if (!k || (active && active !== document.body && document.contains(active))) return;
    var el = found(k);
    if (el) el.focus();
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
