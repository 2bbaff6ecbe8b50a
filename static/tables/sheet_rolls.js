/* Roll from the sheet (issue 37): a link on one's character card
 * (templates/tables/partials/sheet_rolls.html) redraws the composer with that
 * attribute, skill or focus chosen. Once htmx has settled the new composer, its
 * Roll button takes the focus, so a keyboard user rolls with Enter or Space at once;
 * if the composer came back without one (an error), focus goes to the composer.
 */
(function () {
  "use strict";

  document.body.addEventListener("htmx:afterSettle", function (e) {
    var elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-sheet-roll")) return;
    var button = document.getElementById("roll-button");
    if (button) {
      button.focus();
      return;
    }
    var region = document.getElementById("composer") || document.getElementById("d20-play");
    if (!region) return;
    region.setAttribute("tabindex", "-1");
    region.focus();
  });
})();
