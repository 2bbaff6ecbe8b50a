/* The roll stage (issue 29): a roll that lands is shown large for a moment on
 * every screen, then the copy goes and the card stays in the log.
 *
 * live.js calls momentaStage.landed(ids) with the log entries a socket push
 * added; focus.js calls momentaStage.show(entry) for the answer to one's own
 * roll (focus then reads that entry, so nothing is announced twice).
 * An entry is a roll to stage when it has parts marked data-say (the templates
 * choose them: who rolled what, the outcome); those parts, and nothing else of
 * the card, are said once through #table-announce (role="status", polite). The
 * log itself is not a live region any more, so other entries are said there too.
 * The words are the server's (translated); this file holds none.
 * Motion is site.css's: without movement under prefers-reduced-motion. A person who
 * turned the stage off (their settings) gets no stage at all, only the line said.
 */
(function () {
  "use strict";

  var SHOWN_MS = 3200; // how long a roll stays large; matches the roll-stage animations
  var stage = document.getElementById("roll-stage");
  var announcer = document.getElementById("table-announce");
  if (!stage || !announcer) return;

  var staged = {}; // seq -> true: an entry is staged once, however it arrives
  var timer = null;
  var flip = false;

  function words(el) {
    return (el.textContent || "").replace(/\s+/g, " ").trim();
  }

  function say(text) {
    if (!text) return;
    // The same words twice in a row are still a new roll: a no-break space
    // toggled at the end makes it a change a screen reader reports.
    flip = !flip;
    announcer.textContent = text + (flip ? "" : "\u00a0");
  }

  function hide() {
    clearTimeout(timer);
    stage.hidden = true;
    stage.classList.remove("roll-stage--on");
    stage.replaceChildren();
  }

  // A look-alike of the card's heart, for the eyes only: who rolled what, the
  // dice, the outcome (the parts marked data-say and the first dice), so it fits
  // the stage's band (site.css); no ids (they stay unique to the log), nothing
  // to press (the real buttons are in the log).
  function copyOf(entry) {
    var card = document.createElement("div");
    card.className = "roll-stage-card " + entry.className.replace(/\blog-entry\b/g, "");
    var dice = false;
    entry.querySelectorAll("[data-say], .dice, .d20-dice").forEach(function (el) {
      var isDice = !el.hasAttribute("data-say");
      if (isDice && (dice || el.closest("[data-say]"))) return;
      dice = dice || isDice;
      var part = document.createElement(isDice ? "p" : "div");
      part.className = isDice ? "roll-stage-dice" : "roll-stage-line";
      part.innerHTML = el.outerHTML;
      card.appendChild(part);
    });
    card.querySelectorAll("form, button, input, select, textarea, .d20-open").forEach(function (el) {
      el.remove();
    });
    // A rule's link keeps its words, not its link: the stage is for the eyes only.
    card.querySelectorAll("a").forEach(function (a) {
      a.replaceWith.apply(a, Array.prototype.slice.call(a.childNodes));
    });
    card.querySelectorAll("[id]").forEach(function (el) {
      el.removeAttribute("id");
    });
    return card;
  }

  // The person's setting (roll_stage.html data-off): rolls go straight to the log.
  var off = stage.hasAttribute("data-off");

  function show(entry) {
    var seq = entry.getAttribute("data-seq");
    if (off || !seq || staged[seq] || !entry.querySelector("[data-say]")) return false;
    staged[seq] = true;
    hide();
    stage.appendChild(copyOf(entry));
    stage.hidden = false;
    void stage.offsetWidth; // restart the animation for a roll that follows another
    stage.classList.add("roll-stage--on");
    timer = setTimeout(hide, SHOWN_MS);
    return true;
  }

  function landed(ids) {
    var lines = [];
    ids.forEach(function (id) {
      var entry = document.getElementById(id);
      if (!entry) return;
      var parts = entry.querySelectorAll("[data-say]");
      if (parts.length) {
        show(entry);
        lines.push(Array.prototype.map.call(parts, words).join(": "));
      } else {
        lines.push(words(entry));
      }
    });
    say(lines.join(" "));
  }

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && !stage.hidden) hide();
  });

  window.momentaStage = { show: show, landed: landed, hide: hide };
})();
