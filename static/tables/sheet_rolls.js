/* Roll from the sheet (issue 37): a link on one's character card
 * (templates/tables/partials/sheet_rolls.html) redraws the composer with that
 * attribute, skill or focus chosen. Once htmx has settled the new composer, its
 * Roll button takes the focus, so a keyboard user rolls with Enter or Space at once;
 * if the composer came back without one (an error), focus goes to the composer.
 *
 * A push that redraws every card (#characters, out of band: a harm track set, a
 * session started) is drawn once per audience, so it holds nobody's own links: the
 * ones this page had go back beside their cards.
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

  var kept = [];

  document.body.addEventListener("htmx:oobBeforeSwap", function (e) {
    if (!e.detail.target || e.detail.target.id !== "characters") return;
    kept = Array.prototype.slice.call(e.detail.target.querySelectorAll("nav.sheet-rolls"));
  });

  document.body.addEventListener("htmx:oobAfterSwap", function (e) {
    if (!kept.length) return;
    kept.forEach(function (nav) {
      var card = document.getElementById("character-" + nav.id.replace("sheet-rolls-", ""));
      if (!card || document.getElementById(nav.id)) return;
      // Its place: last in the character's box (characters.html), after its tracks.
      card.parentElement.appendChild(nav);
    });
    kept = [];
  });
})();
