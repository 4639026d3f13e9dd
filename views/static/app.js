// Small behaviour for the dashboard, loaded as a file (the Content-Security-Policy allows no inline script).
// Forms marked data-confirm ask before they are sent.
document.addEventListener("submit", (e) => {
  const form = e.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    e.preventDefault();
  }
});
