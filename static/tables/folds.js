// Folded composer options (<details data-fold>): open on wide screens, closed on
// phones, so the Roll button and the log are near the top of a 375 px screen.
// The server marks a fold data-fold-open when it must stay open (an error: the
// choices kept are then in view). Composers drawn by htmx get the same treatment.
(function () {
  "use strict";
  const wide = window.matchMedia("(min-width: 760px)");

  function fold(details) {
    details.open = details.hasAttribute("data-fold-open") || wide.matches;
  }

  function foldAll(root) {
    if (!root || !root.querySelectorAll) return;
    if (root.matches && root.matches("details[data-fold]")) fold(root);
    root.querySelectorAll("details[data-fold]").forEach(fold);
  }

  foldAll(document);
  document.addEventListener("htmx:load", (event) => foldAll(event.detail.elt));
  // Turning a tablet or resizing a window: each fold follows the new width.
  wide.addEventListener("change", () => foldAll(document));
})();
