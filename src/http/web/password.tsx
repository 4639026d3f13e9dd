// /account/password: a signed-in person changes their password. The domain revokes their CLI tokens, ends their
// other dashboard sessions and sends the notice; this browser stays signed in under a new session ID.

import type { FieldErrors } from "../../../views/frame.ts";
import { PasswordPage } from "../../../views/password.tsx";
import { changePassword } from "../../domain/identity/passwords/service.ts";
import { rotateSession } from "../../domain/identity/sessions/service.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, redirect, render, setFlash, setSessionCookie, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const page = (w: Web, errors?: FieldErrors, status = 200) =>
  render(w, <PasswordPage f={frame(w, "Change password", "security")} errors={errors} />, status);

async function submit(w: Web): Promise<Response> {
  const s = w.session!;
  const password = w.form.get("password") ?? "";
  if (password !== (w.form.get("password_confirm") ?? ""))
    return page(w, { password_confirm: "The two new passwords are not the same." }, 422);
  try {
    await changePassword(
      w.app,
      w.member!.actor,
      { current_password: w.form.get("current_password") ?? "", password },
      { keepSessionId: s.id, address: w.meta.ip },
    );
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, fieldErrors(e), e.status);
  }
  const next = await rotateSession(
    w.app,
    s,
    { stage: "active", userId: s.user_id!, orgId: s.org_id, livemode: s.livemode === 1 },
    w.meta,
    { confirmed_at: s.confirmed_at },
  );
  setSessionCookie(w, next);
  setFlash(w, "password_changed");
  return redirect(w, "/account/security");
}

export const passwordRoutes: WebRoute[] = [
  { method: "GET", path: "/account/password", access: "member", org: "none", handler: (w) => page(w) },
  { method: "POST", path: "/account/password", access: "member", org: "none", handler: submit },
];
