// The calendar's month: drag a post that can still move onto another day and it moves there at the same time of
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
