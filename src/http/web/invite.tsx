// GET/POST /invite/<token>: accept an invitation, signed in (an existing account) or not (a new one).
import { InviteDonePage, InvitePage } from "../../../views/invite.tsx";
import { acceptInvitation, findInvitation } from "../../domain/identity/invitations/service.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, render, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const TITLE = "Invitation";

const signedIn = (w: Web) => (w.session?.stage === "active" && w.session.user_id ? w.session.user_id : null);

async function show(w: Web, errors?: Record<string, string>, status = 200) {
  const token = w.params.token ?? "";
  const inv = await findInvitation(w.app, token);
  return render(
    w,
    <InvitePage
      f={frame(w, TITLE)}
      token={token}
      inv={inv}
      signedInAs={signedIn(w) ? (w.member?.email ?? null) : null}
      {...(errors ? { errors } : {})}
    />,
    status,
  );
}

async function accept(w: Web) {
  const token = w.params.token ?? "";
  const name = w.form.get("name")?.trim();
  const password = w.form.get("password");
  try {
    const r = await acceptInvitation(
      w.app,
      { token, ...(password ? { password } : {}), ...(name ? { name } : {}) },
      { signedInUserId: signedIn(w), address: w.meta.ip },
    );
    return render(w, <InviteDonePage f={frame(w, "Welcome")} org={r.org.name} created={r.created_account} />);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.code === "invitation_invalid") throw e;
    return show(w, fieldErrors(e), e.status);
  }
}

export const inviteRoutes: WebRoute[] = [
  { method: "GET", path: "/invite/:token", access: "guest", handler: (w) => show(w) },
  { method: "POST", path: "/invite/:token", access: "guest", handler: accept },
];
