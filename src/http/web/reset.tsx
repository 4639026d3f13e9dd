// GET/POST /reset (ask for a link) and GET/POST /reset/<token> (choose a new password).
import { ResetInvalidPage, ResetPasswordPage, ResetRequestPage } from "../../../views/reset.tsx";
import {
  checkResetLink,
  requestPasswordReset,
  resetPasswordWithLink,
} from "../../domain/identity/passwords/service.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";
import { limitSignIn } from "./signin.tsx";

const TITLE = "Reset your password";

async function requestPage(w: Web) {
  return render(w, <ResetRequestPage f={frame(w, TITLE)} />);
}

async function request(w: Web) {
  const email = w.form.get("email") ?? "";
  try {
    // The same per-address limit as sign-in: asking for links cannot be used to flood inboxes or probe.
    limitSignIn(w);
    await requestPasswordReset(w.app, { email });
    return render(w, <ResetRequestPage f={frame(w, TITLE)} sent email={email} />);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return render(
      w,
      <ResetRequestPage f={frame(w, TITLE)} email={email} errors={fieldErrors(e)} />,
      e.status,
      e.headers,
    );
  }
}

async function invalid(w: Web, e: ServiceError) {
  return render(w, <ResetInvalidPage f={frame(w, TITLE)} message={e.message} />, e.status);
}

async function formPage(w: Web) {
  const token = w.params.token ?? "";
  try {
    const link = await checkResetLink(w.app, token);
    return render(
      w,
      <ResetPasswordPage f={frame(w, TITLE)} token={token} email={link.email} passkeys={link.passkeys} />,
    );
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return invalid(w, e);
  }
}

async function reset(w: Web) {
  const token = w.params.token ?? "";
  try {
    await resetPasswordWithLink(w.app, {
      token,
      password: w.form.get("password") ?? "",
      keep_passkeys: w.form.getAll("keep_passkey"),
    });
    setFlash(w, "password_reset");
    return redirect(w, "/signin");
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    if (e.code === "reset_link_invalid") return invalid(w, e);
    const link = await checkResetLink(w.app, token).catch(() => null);
    if (!link) return invalid(w, e);
    return render(
      w,
      <ResetPasswordPage
        f={frame(w, TITLE)}
        token={token}
        email={link.email}
        passkeys={link.passkeys}
        kept={w.form.getAll("keep_passkey")}
        errors={fieldErrors(e)}
      />,
      e.status,
    );
  }
}

export const resetRoutes: WebRoute[] = [
  { method: "GET", path: "/reset", access: "guest", handler: requestPage },
  { method: "POST", path: "/reset", access: "guest", handler: request },
  { method: "GET", path: "/reset/:token", access: "guest", handler: formPage },
  { method: "POST", path: "/reset/:token", access: "guest", handler: reset },
];
