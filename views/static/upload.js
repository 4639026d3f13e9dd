// Uploads with drag and drop and progress, for the media library and the composer ("upload in place"). Each file
// is sent on its own (XMLHttpRequest, for upload progress) to the form's action as multipart parts brand, alt and
// file; the answer is the medium's JSON or a problem. In the library the page then shows the new grid; in the
// composer the new medium is added to the list, ticked, and the preview asked again. Without JavaScript the
// library's form uploads by itself and the composer's drop zone stays hidden.
(() => {
  const zones = document.querySelectorAll("[data-upload]");
  for (const zone of zones) setUp(zone);

  function setUp(zone) {
    zone.hidden = false;
    const kind = zone.dataset.upload;
    const form = zone.closest("form");
    const input = zone.querySelector('input[type="file"]');
    const list = zone.querySelector(".uploads");
    const action = zone.dataset.action || form?.getAttribute("action");

    for (const ev of ["dragenter", "dragover"])
      zone.addEventListener(ev, (e) => {
        e.preventDefault();
        zone.classList.add("over");
      });
    for (const ev of ["dragleave", "drop"])
      zone.addEventListener(ev, (e) => {
        e.preventDefault();
        zone.classList.remove("over");
      });
    zone.addEventListener("drop", (e) => {
      if (e.dataTransfer?.files.length) uploadAll([...e.dataTransfer.files]);
    });
    if (input && kind === "composer")
      input.addEventListener("change", () => {
        uploadAll([...input.files]);
        input.value = "";
      });
    if (form && kind === "library")
      form.addEventListener("submit", (e) => {
        if (!input?.files.length) return;
        e.preventDefault();
        uploadAll([...input.files]);
      });

    function brand() {
      if (kind === "library") {
        const select = form.querySelector('select[name="brand"]');
        return select ? select.value : "";
      }
      const chosen = document.querySelector('input[name="channels"]:checked');
      return chosen?.dataset.brand || zone.dataset.brand || "";
    }

    async function uploadAll(files) {
      let done = 0;
      for (const file of files) {
        const ok = await uploadOne(file);
        if (ok) done++;
      }
      if (kind === "library" && done > 0)
        window.location.assign(window.location.pathname + window.location.search);
    }

    function row(file) {
      const li = document.createElement("li");
      const name = document.createElement("span");
      name.className = "upload-name";
      name.textContent = file.name;
      const bar = document.createElement("progress");
      bar.max = 100;
      bar.value = 0;
      bar.setAttribute("aria-label", `Uploading ${file.name}`);
      const note = document.createElement("span");
      note.className = "upload-note";
      li.append(name, " ", bar, " ", note);
      list.append(li);
      return { li, bar, note };
    }

    function uploadOne(file) {
      const r = row(file);
      const b = brand();
      if (!b) {
        r.note.textContent = "Pick a channel first: the file goes to its brand's library.";
        r.li.classList.add("error");
        r.bar.remove();
        return Promise.resolve(false);
      }
      const data = new FormData();
      data.append("brand", b);
      const alt = kind === "library" ? form.querySelector('[name="alt"]') : null;
      if (alt?.value) data.append("alt", alt.value);
      data.append("file", file, file.name);
      return new Promise((resolve) => {
        const xhr = new XMLHttpRequest();
        xhr.open("POST", action);
        xhr.setRequestHeader("Accept", "application/json");
        xhr.upload.addEventListener("progress", (e) => {
          if (e.lengthComputable) {
            r.bar.value = Math.round((e.loaded / e.total) * 100);
            r.note.textContent = `${r.bar.value}%`;
          }
        });
        xhr.addEventListener("load", () => {
          let body = null;
          try {
            body = JSON.parse(xhr.responseText);
          } catch {}
          if (xhr.status === 201 && body) {
            r.bar.value = 100;
            r.note.textContent = "Uploaded";
            r.li.classList.add("done");
            if (kind === "composer") attach(body);
            resolve(true);
          } else {
            const message = body && (body.errors?.[0] ? body.errors[0].message : body.message);
            r.note.textContent = `${message || `Upload failed (HTTP ${xhr.status}).`}${body?.code ? ` (${body.code})` : ""}`;
            r.li.classList.add("error");
            r.bar.remove();
            resolve(false);
          }
        });
        xhr.addEventListener("error", () => {
          r.note.textContent = "The upload did not reach the server.";
          r.li.classList.add("error");
          r.bar.remove();
          resolve(false);
        });
        xhr.send(data);
      });
    }

    /** The new medium in the composer's list, ticked; the form's change asks for a new preview. */
    function attach(m) {
      const ul = document.getElementById("compose-media");
      const none = document.getElementById("media-none");
      if (none) none.remove();
      const li = document.createElement("li");
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.name = "media";
      box.value = m.id;
      box.checked = true;
      label.append(box, " ");
      if (m.type.startsWith("image/")) {
        const img = document.createElement("img");
        img.className = "thumb-sm";
        img.src = `/media/${m.id}/thumb`;
        img.alt = "";
        label.append(img);
      }
      const text = document.createElement("span");
      const strong = document.createElement("strong");
      strong.textContent = m.filename || m.id;
      const meta = document.createElement("span");
      meta.className = "muted";
      meta.textContent = ` ${m.type}${m.width && m.height ? ` · ${m.width}×${m.height}` : ""}`;
      const alt = document.createElement("span");
      alt.className = "alt";
      alt.textContent = "No alt text: add it in the media library.";
      text.append(strong, meta, alt);
      label.append(text);
      li.append(label);
      ul.append(li);
      const details = ul.closest("details");
      if (details) details.open = true;
      box.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
})();
