// Behaviour that would otherwise be inline handlers, which the Content-Security-Policy
// refuses: <form data-confirm="…"> asks before submitting, and an input with
// data-select-on-click selects its whole text (the invite link) when clicked.
document.addEventListener("submit", (event) => {
  const question = event.target.dataset && event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
document.addEventListener("click", (event) => {
  if (event.target.matches && event.target.matches("input[data-select-on-click]")) {
    event.target.select();
  }
});

// Skip links (base.html): one whose target is not on this page (no Roll button for an
// observer) is hidden; following one focuses its target, even one that is not
// focusable by itself (given tabindex="-1"), so the next Tab goes on from there.
(function () {
  const links = document.querySelectorAll("a.skip-link");
  links.forEach((link) => {
    if (!document.getElementById(link.hash.slice(1))) link.hidden = true;
  });
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.skip-link");
    const target = link && document.getElementById(link.hash.slice(1));
    if (!target) return;
    event.preventDefault();
    if (!target.matches("a[href], button, input, select, textarea, [tabindex]")) {
      target.setAttribute("tabindex", "-1");
    }
    target.focus();
  });
})();
