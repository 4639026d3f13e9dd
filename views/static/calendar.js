// The calendar: in the month, drag a post that can still move onto another day and it moves there at the same time of
// day (the brand's zone), through the same form post as the queue's Move (POST /queue/<id>/move). Without this
// script the page still shows everything, and each day opens its week, where the Move form does the same.
(() => {
  const form = document.getElementById("month-move");
  if (!(form instanceof HTMLFormElement)) return;
  let dragged = null;
  document.addEventListener("dragstart", (e) => {
    const el = e.target instanceof Element ? e.target.closest("[data-move]") : null;
    if (!el) return;
    dragged = el;
    el.classList.add("dragging");
    e.dataTransfer?.setData("text/plain", el.id);
    if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
  });
  document.addEventListener("dragend", () => {
    dragged?.classList.remove("dragging");
    dragged = null;
    for (const d of document.querySelectorAll(".month-day.drop")) d.classList.remove("drop");
  });
  const dayOf = (e) => (e.target instanceof Element ? e.target.closest(".month-day[data-date]") : null);
  document.addEventListener("dragover", (e) => {
    const day = dayOf(e);
    if (!dragged || !day) return;
    e.preventDefault();
    for (const d of document.querySelectorAll(".month-day.drop")) if (d !== day) d.classList.remove("drop");
    day.classList.add("drop");
  });
  document.addEventListener("drop", (e) => {
    const day = dayOf(e);
    if (!dragged || !day) return;
    e.preventDefault();
    if (day.contains(dragged)) return;
    form.action = dragged.dataset.move;
    form.elements.namedItem("at").value = `${day.dataset.date}T${dragged.dataset.time}`;
    form.submit();
  });
})();

// The queue's week: every Move link opens the page's one move form in a dialog, set for that post. Without this
// script the link asks the server for the page with the form open for the post (?move=<id>), which does the same.
(() => {
  const dialog = document.getElementById("move-dialog");
  const form = document.getElementById("move-form");
  if (!(dialog instanceof HTMLDialogElement) || !(form instanceof HTMLFormElement)) return;
  const which = document.getElementById("move-which");
  const swap = form.elements.namedItem("swap_with");
  const open = (id, label) => {
    form.reset();
    form.action = `/queue/${encodeURIComponent(id)}/move`;
    if (which) which.textContent = label;
    document.getElementById("move-form-error")?.remove();
    // A post cannot swap with itself.
    if (swap instanceof HTMLSelectElement)
      for (const o of swap.options) o.disabled = o.value !== "" && o.value === id;
    if (dialog.open) dialog.close();
    dialog.showModal();
    form.elements.namedItem("slot")?.focus();
  };
  document.addEventListener("click", (e) => {
    const link = e.target instanceof Element ? e.target.closest("a.move-link[data-move]") : null;
    if (link instanceof HTMLAnchorElement) {
      e.preventDefault();
      open(link.dataset.move ?? "", link.dataset.label ?? "");
      return;
    }
    if (e.target instanceof Element && e.target.closest("#move-cancel")) {
      e.preventDefault();
      dialog.close();
    }
  });
  // Opened by the server (?move=<id>, or a refused move shown again): the same dialog, modal.
  if (dialog.open) {
    dialog.close();
    dialog.showModal();
  }
})();
