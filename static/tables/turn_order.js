/* The GM's turn order (issue 37), in the turn tracker (turn_tracker.html).
 *
 * The start form (ul[data-turn-order=start]): ticking a character puts it after the
 * ones already ticked, so the list reads in the order ticked, each numbered; unticking
 * sends it back among the others in its first place. The checkboxes submit in the
 * list's order, which is the conflict's. Move up/down and drag and drop reorder the
 * ticked ones. Without this script the list's own order is submitted.
 *
 * The running conflict's "still to act" (ul[data-turn-order=running]): its Move
 * up/down buttons post by themselves; a row dropped elsewhere posts the whole new
 * order through the hidden form .turn-order (action "order"), which the server checks.
 *
 * Everything listens on the document, so the tracker redrawn by a command's answer or
 * a push needs nothing set up again. No words here: they are the server's.
 */
(function () {
  "use strict";

  function rows(list) {
    return Array.prototype.slice.call(list.children).filter(function (li) {
      return li.matches("li[data-character]");
    });
  }

  function ticked(li) {
    var box = li.querySelector("input[type=checkbox]");
    return !!(box && box.checked);
  }

  // The start list: the ticked first (their order is the GM's), then the others in
  // the order the page drew them.
  function remember(list) {
    rows(list).forEach(function (li, i) {
      if (!li.hasAttribute("data-home")) li.setAttribute("data-home", String(i));
    });
  }

  function arrange(list) {
    var all = rows(list);
    var rest = all.filter(function (li) { return !ticked(li); });
    rest.sort(function (a, b) { return a.getAttribute("data-home") - b.getAttribute("data-home"); });
    all.filter(ticked).concat(rest).forEach(function (li) { list.appendChild(li); });
    var n = 0;
    rows(list).forEach(function (li) {
      var on = ticked(li);
      if (on) n += 1;
      li.querySelector(".turn-place").textContent = on ? n + ". " : "";
      li.querySelector(".turn-move").hidden = !on;
      li.draggable = on;
    });
  }

  function startList(el) {
    return el && el.closest && el.closest("ul[data-turn-order=start]");
  }

  function runningList(el) {
    return el && el.closest && el.closest("ul[data-turn-order=running]");
  }

  document.addEventListener("change", function (e) {
    var list = startList(e.target);
    if (!list || e.target.type !== "checkbox") return;
    var li = e.target.closest("li");
    remember(list); // before the first move: where each row was drawn
    if (e.target.checked) {
      // At the end of the ticked ones: before the first unticked row.
      var after = rows(list).filter(function (r) { return r !== li && !ticked(r); })[0];
      list.insertBefore(li, after || null);
    }
    arrange(list);
    e.target.focus();
  });

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button[data-move]");
    var list = startList(button);
    if (!list) return;
    e.preventDefault();
    var li = button.closest("li");
    var line = rows(list).filter(ticked);
    var i = line.indexOf(li);
    if (button.getAttribute("data-move") === "up" && i > 0) list.insertBefore(li, line[i - 1]);
    if (button.getAttribute("data-move") === "down" && i >= 0 && i < line.length - 1) {
      list.insertBefore(li, line[i + 1].nextSibling);
    }
    arrange(list);
    button.focus(); // moving the row took the focus from it
  });

  // Drag and drop, in either list: a row goes before or after the row it is dropped
  // on, by which half of it the pointer is over.
  var dragged = null;

  function listOf(el) {
    return startList(el) || runningList(el);
  }

  document.addEventListener("dragstart", function (e) {
    var li = e.target.closest && e.target.closest("li[data-character]");
    dragged = li && listOf(li) && li.draggable ? li : null;
    if (!dragged) return;
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", dragged.getAttribute("data-character"));
    dragged.classList.add("turn-dragging");
  });

  function dropTarget(e) {
    var li = e.target.closest && e.target.closest("li[data-character]");
    if (!dragged || !li || li === dragged || !li.draggable) return null;
    return listOf(li) === listOf(dragged) ? li : null;
  }

  document.addEventListener("dragover", function (e) {
    if (!dropTarget(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
  });

  document.addEventListener("dragend", function () {
    if (dragged) dragged.classList.remove("turn-dragging");
    dragged = null;
  });

  document.addEventListener("drop", function (e) {
    var li = dropTarget(e);
    if (!li) return;
    e.preventDefault();
    var list = listOf(li);
    var before = ids(list);
    var box = li.getBoundingClientRect();
    list.insertBefore(dragged, e.clientY > box.top + box.height / 2 ? li.nextSibling : li);
    if (startList(list)) {
      arrange(list);
      return;
    }
    if (ids(list).join() !== before.join()) post(list);
  });

  // A push that redraws the tracker (the GM's own move comes back from the socket too)
  // would drop the focus to <body>: it goes back to the control of the same id.
  var focused = "";
  document.body.addEventListener("htmx:oobBeforeSwap", function (e) {
    var active = document.activeElement;
    var tracker = e.detail.target;
    focused = tracker && tracker.id === "turn-tracker" && active && active.id && tracker.contains(active) ? active.id : "";
  });
  document.body.addEventListener("htmx:oobAfterSwap", function () {
    var active = document.activeElement;
    var again = focused && document.getElementById(focused);
    focused = "";
    if (again && (!active || active === document.body || !document.contains(active))) again.focus();
  });

  function ids(list) {
    return rows(list).map(function (li) { return li.getAttribute("data-character"); });
  }

  function post(list) {
    var form = list.closest("#turn-tracker").querySelector("form.turn-order");
    if (!form) return;
    form.querySelectorAll("input[name=character]").forEach(function (input) { input.remove(); });
    ids(list).forEach(function (id) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "character";
      input.value = id;
      form.appendChild(input);
    });
    form.requestSubmit();
  }
})();
