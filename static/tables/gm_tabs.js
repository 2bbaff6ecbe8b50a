// The GM tools as tabs (issue 14), on the WAI-ARIA tabs pattern: one tab per
// [data-gm-tab] section of #gm-panel, arrow keys, Home and End move between tabs,
// and only the chosen panel shows. Without this script every section shows under its
// heading. htmx replaces the whole panel (a GM form's answer) or parts of it (a live
// push swaps ids inside, some of them panels): after each swap the tabs are drawn
// again from what is there, and the chosen tab stays chosen while its panel exists.
(function () {
  "use strict";
  let chosen = null; // the id of the chosen panel, kept across swaps

  function panelsOf(root) {
    return Array.from(root.querySelectorAll("[data-gm-tab]")).filter((p) => p.id);
  }

  function labelOf(panel) {
    const badge = panel.querySelector("[data-gm-tab-badge]");
    return { text: panel.dataset.gmTab, badge: badge ? badge.textContent.trim() : "" };
  }

  function tabFor(panel) {
    const tab = document.createElement("button");
    tab.type = "button";
    tab.id = panel.id + "-tab";
    tab.className = "gm-tab";
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-controls", panel.id);
    const { text, badge } = labelOf(panel);
    tab.append(text);
    if (badge) {
      const span = document.createElement("span");
      span.className = "gm-tab-badge";
      span.textContent = badge;
      tab.append(" ", span);
    }
    return tab;
  }

  function select(root, id, focus) {
    chosen = id;
    root.querySelectorAll("[role=tab]").forEach((tab) => {
      const on = tab.getAttribute("aria-controls") === id;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    });
    panelsOf(root).forEach((panel) => {
      panel.hidden = panel.id !== id;
      // A part drawn without its forms fetches them as its tab shows (gm_tools_later.html):
      // in the laptop's tools box (issue 37) it may show below the box's fold, unseen.
      if (!panel.hidden) panel.dispatchEvent(new CustomEvent("gm-tab-shown"));
    });
  }

  function draw() {
    const root = document.getElementById("gm-panel");
    const list = root && root.querySelector("[data-gm-tablist]");
    if (!list) return;
    const panels = panelsOf(root);
    if (!panels.length) return;
    const focused = list.contains(document.activeElement);
    list.replaceChildren(...panels.map(tabFor));
    list.setAttribute("role", "tablist");
    // The tablist's name comes translated from the template (gm_panel.html).
    list.hidden = false;
    panels.forEach((panel) => {
      panel.setAttribute("role", "tabpanel");
      panel.setAttribute("aria-labelledby", panel.id + "-tab");
      panel.tabIndex = 0;
    });
    root.classList.add("gm-panel--tabs");
    const keep = panels.some((p) => p.id === chosen) ? chosen : panels[0].id;
    select(root, keep, focused);
  }

  document.addEventListener("click", (event) => {
    const tab = event.target.closest && event.target.closest("#gm-panel [role=tab]");
    if (tab) select(document.getElementById("gm-panel"), tab.getAttribute("aria-controls"));
  });

  const MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  document.addEventListener("keydown", (event) => {
    const tab = event.target.closest && event.target.closest("#gm-panel [role=tab]");
    if (!tab) return;
    const tabs = Array.from(tab.parentElement.querySelectorAll("[role=tab]"));
    let next = null;
    if (event.key in MOVES) {
      const at = tabs.indexOf(tab) + MOVES[event.key];
      next = tabs[(at + tabs.length) % tabs.length];
    } else if (event.key === "Home") {
      next = tabs[0];
    } else if (event.key === "End") {
      next = tabs[tabs.length - 1];
    }
    if (!next) return;
    event.preventDefault();
    select(document.getElementById("gm-panel"), next.getAttribute("aria-controls"), true);
  });

  // One push swaps several parts: draw once after them, before the page is painted.
  let pending = false;
  function later() {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      draw();
    });
  }

  draw();
  // A new #gm-panel, a pushed part of it, or a Momenta tools answer: draw the tabs again.
  document.addEventListener("htmx:afterSwap", later);
  document.addEventListener("htmx:oobAfterSwap", later);
})();
