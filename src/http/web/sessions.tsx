// GET /account/sessions, POST /account/sessions/:id/revoke and POST /account/sessions/everywhere (sign out every
// other browser and CLI, asking which passkeys to keep).

import { SessionsPage } from "../../../views/sessions.tsx";
import { listPasskeys } from "../../domain/identity/mfa/passkeys.ts";
import { listSessions, revokeSession } from "../../domain/identity/sessions/service.ts";
import { signOutEverywhere } from "../../domain/identity/sessions/sign-out-everywhere.ts";
import { ServiceError } from "../../lib/errors.ts";
import { emptyFragment, fieldErrors, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";
import { confirmIfGiven, sudoNeeded } from "./sudo.ts";

async function page(w: Web, errors?: Record<string, string>, status = 200) {
  const [sessions, passkeys] = await Promise.all([
    listSessions(w.app, w.session!),
    listPasskeys(w.app, w.session!),
  ]);
  return render(
    w,
    <SessionsPage
      f={frame(w, "Sessions", "sessions")}
      sessions={sessions}
      passkeys={passkeys}
      kept={w.form.getAll("keep_passkey")}
      sudo={sudoNeeded(w)}
      errors={errors}
    />,
    status,
  );
}

async function revoke(w: Web) {
  await revokeSession(w.app, w.session!, w.params.id ?? "");
  // htmx swaps the row for nothing; a plain form goes back to the list.
  if (w.request.headers.get("hx-request") === "true") return emptyFragment(w);
  setFlash(w, "session_revoked");
  return redirect(w, "/account/sessions");
}

async function everywhere(w: Web) {
  try {
    await confirmIfGiven(w);
    await signOutEverywhere(w.app, w.session!, { keep_passkeys: w.form.getAll("keep_passkey") });
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    const errors = e.code === "reauthentication_required" ? { password: e.message } : fieldErrors(e);
    return page(w, errors, e.status);
  }
  setFlash(w, "signed_out_everywhere");
  return redirect(w, "/account/sessions");
}

export const sessionRoutes: WebRoute[] = [
  { method: "GET", path: "/account/sessions", access: "member", org: "none", handler: (w) => page(w) },
  { method: "POST", path: "/account/sessions/:id/revoke", access: "member", org: "none", handler: revoke },
  {
    method: "POST",
    path: "/account/sessions/everywhere",
    access: "member",
    org: "none",
    handler: everywhere,
  },
];
