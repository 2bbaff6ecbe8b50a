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
