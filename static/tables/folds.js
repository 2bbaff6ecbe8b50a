// Folded options (<details data-fold>): open on wide screens, closed on phones, so
// the Roll button and the log are near the top of a 375 px screen. The server marks
// a fold data-fold-open when it must stay open (an error: the choices kept are then
// in view). Folds drawn by htmx get the same treatment.
//
// The composer's "More options" (details.composer-more) starts folded on every
// screen, so the Roll button and the last roll are in view (issue 29), and then
// stays as its person left it: the state is kept in localStorage under a key with
// the person's id (#table data-person), so two people sharing a browser keep theirs.
(function () {
  "use strict";
  const wide = window.matchMedia("(min-width: 760px)");
  const table = document.getElementById("table");
  const MORE = "details.composer-more";
  const key = "momenta:more-options:" + ((table && table.dataset.person) || "");

  function remembered() {
    try {
      return window.localStorage.getItem(key) === "open";
    } catch (e) {
      return false; // storage refused (private mode): folded
    }
  }

  function remember(open) {
    try {
      window.localStorage.setItem(key, open ? "open" : "closed");
    } catch (e) {
      /* storage refused: the fold just is not remembered */
    }
  }

  function fold(details) {
    if (details.hasAttribute("data-fold-open")) details.open = true;
    else if (details.matches(MORE)) details.open = remembered();
    else details.open = wide.matches;
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
  // Only a person's own open or close is remembered (a click on the summary, also
  // what Enter and Space give), not the ones this file makes (toggle fires for both).
  let byPerson = null;
  document.addEventListener("click", (event) => {
    const summary = event.target.closest && event.target.closest("summary");
    if (summary && summary.parentElement.matches(MORE)) byPerson = summary.parentElement;
  });
  document.addEventListener(
    "toggle", // does not bubble: caught on the way down
    (event) => {
      if (event.target !== byPerson) return;
      byPerson = null;
      remember(event.target.open);
    },
    true,
  );
})();
