/* A pool's history on the table page (server side: views_table.pool_ledger).
 *
 * Every pool is a link with hx-get into #pool-ledger-body; this opens the
 * dialog around the answer. A refusal (Threat hidden, a bad link: 4xx) is a
 * message for the dialog too, so it is swapped in like a ledger. Esc, the
 * Close button and a click on the backdrop close it; focus returns to the pool.
 */
(function () {
  "use strict";

  var dialog = document.getElementById("pool-ledger");
  if (!dialog) return;

  function isLedger(detail) {
    return detail.target && detail.target.id === "pool-ledger-body";
  }

  document.body.addEventListener("htmx:beforeSwap", function (e) {
    var status = e.detail.xhr.status;
    if (isLedger(e.detail) && status >= 400 && status < 500) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });

  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (!isLedger(e.detail) || dialog.open) return;
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  });

  // The dialog's own box has no padding (its content does), so a click whose
  // target is the dialog itself landed on the backdrop.
  dialog.addEventListener("click", function (e) {
    if (e.target === dialog) dialog.close();
  });
})();
