// GET /account/sessions and POST /account/sessions/:id/revoke.

import { SessionsPage } from "../../../views/sessions.tsx";
import { listSessions, revokeSession } from "../../domain/identity/sessions/service.ts";
import { emptyFragment, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

async function page(w: Web) {
  const sessions = await listSessions(w.app, w.session!);
  return render(w, <SessionsPage f={frame(w, "Sessions", "sessions")} sessions={sessions} />);
}

async function revoke(w: Web) {
  await revokeSession(w.app, w.session!, w.params.id ?? "");
  // htmx swaps the row for nothing; a plain form goes back to the list.
  if (w.request.headers.get("hx-request") === "true") return emptyFragment(w);
  setFlash(w, "session_revoked");
  return redirect(w, "/account/sessions");
}

export const sessionRoutes: WebRoute[] = [
  { method: "GET", path: "/account/sessions", access: "member", org: "none", handler: page },
  { method: "POST", path: "/account/sessions/:id/revoke", access: "member", org: "none", handler: revoke },
];
