// Passkeys in the browser: sign in with one (#passkey-signin) and add one (#passkey-add), through the
// @simplewebauthn/browser bundle served by svc. Requests carry the page's CSRF token like every form.
(() => {
  const { startAuthentication, startRegistration, browserSupportsWebAuthn } = window.SimpleWebAuthnBrowser;
  const csrf = () => document.querySelector('input[name="_csrf"]')?.value ?? "";

  async function post(url, body) {
    const res = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
      body: JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.message || "That did not work. Reload the page and try again.");
    return data;
  }

  function wire(button, errorBox, run) {
    if (!button) return;
    if (!browserSupportsWebAuthn()) {
      button.disabled = true;
      if (errorBox) errorBox.textContent = "This browser cannot use passkeys.";
      return;
    }
    button.addEventListener("click", async () => {
      if (errorBox) errorBox.textContent = "";
      button.disabled = true;
      try {
        const res = await run();
        window.location.assign(res.next);
      } catch (e) {
        if (errorBox)
          errorBox.textContent = e.name === "NotAllowedError" ? "The passkey prompt was closed." : e.message;
        button.disabled = false;
      }
    });
  }

  const signin = document.getElementById("passkey-signin");
  wire(signin, document.getElementById("passkey-error"), async () => {
    const optionsJSON = await post(signin.dataset.options, {});
    const response = await startAuthentication({ optionsJSON });
    return post(signin.dataset.verify, { response });
  });

  const add = document.getElementById("passkey-add");
  wire(add, document.getElementById("passkey-add-error"), async () => {
    const optionsJSON = await post("/account/security/passkeys/options", {});
    const response = await startRegistration({ optionsJSON });
    const name = document.getElementById("passkey-name")?.value ?? "";
    return post("/account/security/passkeys", { response, name });
  });
})();
