/* What a person is typing survives a live redraw of its region.
 *
 * Another player's move pushes a region again (the scene board, the GM tools) as an
 * hx-swap-oob fragment (live.js); the new markup's fields are empty, so a note half
 * typed into the board vanished under the GM's fingers. Before such a swap, each text
 * field with an id that holds something typed (not what the page drew) hands its
 * value to the same field in the new markup, if that one is empty. A form's own answer
 * is a plain swap, not an out-of-band one: sending a note still clears its field. A
 * roll's answer is out of band but draws what the roll spent cleared on purpose: its
 * parts carry data-reset (composer_momenta_rolled.html), and keep nothing typed.
 */
(function () {
  "use strict";

  var TYPED = "input[id]:not([type]), input[id][type=text], input[id][type=number], textarea[id]";

  function keepTyped(target, fragment) {
    if (!target || !target.querySelectorAll || !fragment || !fragment.querySelector) return;
    target.querySelectorAll(TYPED).forEach(function (old) {
      if (!old.value || old.value === old.defaultValue) return;
      var fresh = fragment.querySelector("#" + CSS.escape(old.id));
      if (!fresh || fresh.value) return;
      // The property, not the attribute: the kept text stays "typed" (value differs from
      // defaultValue) for the next redraw too.
      fresh.value = old.value;
    });
  }

  document.body.addEventListener("htmx:oobBeforeSwap", function (e) {
    var fragment = e.detail.fragment;
    // outerHTML: a fragment holding the new element; innerHTML: the element itself.
    var top = fragment && fragment.nodeType === 11 ? fragment.firstElementChild : fragment;
    if (top && top.hasAttribute && top.hasAttribute("data-reset")) return;
    keepTyped(e.detail.target, fragment);
  });
})();
