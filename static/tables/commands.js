/* A failed command is never silent (issue 27).
 *
 * Every htmx command (a POST from a form inside #table) carries an Idempotency-Key:
 * a random UUID per submission, kept on the form until an answer comes, so a retry
 * sends the same key and the server refuses to do it twice (tables/services/idempotency.py).
 *
 * When the answer is a 5xx (a proxy's 502/503/504 too), or none comes (a network
 * error, a timeout), the page first asks the server whether the submission landed
 * (GET data-landed-url?key=…), then says so next to the form: it went through
 * (entry #N), or it did not (with a Try again button that submits the form as it
 * stands: nothing was swapped, so what the person entered is still there), or the
 * server cannot tell (Try again, which is safe). A 4xx says it was refused.
 *
 * While the live socket is down (live.js sets #table's data-live), commands are
 * paused: their buttons are disabled and the page says it is offline.
 *
 * The words come from #command-failures (templates/tables/partials/command_failures.html),
 * translated by the server: nothing here is shown to a person in English.
 */
(function () {
  "use strict";

  var root = document.getElementById("table");
  var words = document.getElementById("command-failures");
  if (!root || !words || !window.htmx) return;

  var TIMEOUT = 20000; // no answer in this long: the request is given up and checked
  var failures = new WeakMap(); // form -> its message element

  function say(name, seq) {
    return (words.getAttribute("data-" + name) || "").replace("{seq}", String(seq));
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; // version 4
    b[8] = (b[8] & 0x3f) | 0x80; // RFC 4122 variant
    var h = Array.prototype.map.call(b, function (x) {
      return (x + 0x100).toString(16).slice(1);
    });
    return [h.slice(0, 4), h.slice(4, 6), h.slice(6, 8), h.slice(8, 10), h.slice(10)]
      .map(function (part) {
        return part.join("");
      })
      .join("-");
  }

  function commandForm(detail) {
    var elt = detail.elt;
    if (!elt || (detail.verb || "").toLowerCase() === "get" || !root.contains(elt)) return null;
    return elt.closest("form") || elt;
  }

  function clear(form) {
    var shown = failures.get(form);
    if (shown) shown.remove();
    failures.delete(form);
  }

  // The message next to the form: a live region, so a screen reader hears it.
  function show(form, text, retry) {
    var box = failures.get(form);
    if (!box || !box.isConnected) {
      box = document.createElement("div");
      box.className = "command-failure";
      box.setAttribute("role", "alert");
      box.setAttribute("aria-live", "assertive");
      form.insertAdjacentElement("afterend", box);
      failures.set(form, box);
    }
    box.textContent = "";
    var p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
    if (retry) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "command-retry";
      button.textContent = say("retry");
      button.addEventListener("click", function () {
        clear(form);
        retry();
      });
      box.appendChild(button);
    }
  }

  function retryOf(form, submitter) {
    return function () {
      if (form.tagName === "FORM") {
        var again = submitter && submitter.isConnected && submitter.form === form ? submitter : null;
        if (again) form.requestSubmit(again);
        else form.requestSubmit();
      } else {
        htmx.trigger(form, "click");
      }
    };
  }

  // Did the submission with this key make an event? -> its seq, null, or a failure.
  function landed(key) {
    var url = words.getAttribute("data-landed-url") + "?key=" + encodeURIComponent(key);
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(
      function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      }
    );
  }

  function failed(form, detail) {
    var key = form.dataset.idempotencyKey;
    var event = detail.requestConfig && detail.requestConfig.triggeringEvent;
    var retry = retryOf(form, event && event.submitter);
    var status = detail.xhr ? detail.xhr.status : 0;
    if (status >= 400 && status < 500) {
      delete form.dataset.idempotencyKey; // refused: the next submission is a new one
      show(form, say("refused"), null);
      return;
    }
    show(form, say("checking"), null);
    if (!key) {
      show(form, say("unknown"), retry);
      return;
    }
    landed(key).then(
      function (answer) {
        if (answer.seq !== null && answer.seq !== undefined) {
          delete form.dataset.idempotencyKey;
          show(form, say("landed", answer.seq), null);
        } else {
          show(form, say("not-landed"), retry);
        }
      },
      function () {
        show(form, say("unknown"), retry);
      }
    );
  }

  document.body.addEventListener("htmx:configRequest", function (e) {
    var form = commandForm(e.detail);
    if (!form) return;
    if (root.getAttribute("data-live") === "offline") {
      e.preventDefault(); // paused: the buttons are disabled, this is a form swapped in since
      show(form, say("offline"), null);
      return;
    }
    clear(form);
    if (!form.dataset.idempotencyKey) form.dataset.idempotencyKey = newKey();
    e.detail.headers["Idempotency-Key"] = form.dataset.idempotencyKey;
    if (!e.detail.timeout) e.detail.timeout = TIMEOUT;
  });

  document.body.addEventListener("htmx:afterRequest", function (e) {
    var form = commandForm(e.detail.requestConfig || e.detail);
    if (form && e.detail.successful) {
      delete form.dataset.idempotencyKey; // answered: the next submission is a new one
      clear(form);
    }
  });
  // An error status, no answer, or none in time (an abort, e.g. hx-sync's, is not a failure).
  ["htmx:responseError", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.body.addEventListener(name, function (e) {
      var form = commandForm(e.detail.requestConfig || e.detail);
      if (form) failed(form, e.detail);
    });
  });

  // Offline: pause every command until the socket is back (live.js's data-live).
  var offline = document.getElementById("command-offline");
  function pause(paused) {
    var buttons = root.querySelectorAll(
      paused ? "form[hx-post] button:not([disabled])" : "button[data-paused]"
    );
    Array.prototype.forEach.call(buttons, function (button) {
      if (button.type === "button") return; // not a submit: its form may need it
      button.disabled = paused;
      if (paused) button.setAttribute("data-paused", "");
      else button.removeAttribute("data-paused");
    });
    if (offline) {
      offline.hidden = !paused;
      offline.textContent = paused ? say("offline") : "";
    }
  }
  var wasOffline = false;
  new MutationObserver(function () {
    var now = root.getAttribute("data-live") === "offline";
    if (now !== wasOffline) pause(now);
    wasOffline = now;
  }).observe(root, { attributes: true, attributeFilter: ["data-live"] });
})();
