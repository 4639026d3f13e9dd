// /invite/<token> and /invite/<token>/p/<proof>: accept an invitation (domain/identity/invitations/accept.ts).
// POST /invite/<token>/confirm mails the invited address a link with the address proof. Joining signs the person
// in, in the org they joined, and lands on Home (or on Security when an org requires two-factor first).
import { InvitePage, InviteSentPage } from "../../../views/invite.tsx";
import {
  acceptInvitation,
  findInvitation,
  sendInvitationProof,
  signInJoined,
} from "../../domain/identity/invitations/accept.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, redirect, render, setFlash, setSessionCookie, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const TITLE = "Invitation";

const signedIn = (w: Web) => (w.session?.stage === "active" && w.session.user_id ? w.session.user_id : null);
const proofOf = (w: Web) => w.params.proof ?? null;

async function show(w: Web, errors?: Record<string, string>, status = 200) {
  const token = w.params.token ?? "";
  const inv = await findInvitation(w.app, token, { proof: proofOf(w), signedInUserId: signedIn(w) });
  return render(
    w,
    <InvitePage
      f={frame(w, TITLE)}
      token={token}
      proof={proofOf(w)}
      inv={inv}
      {...(errors ? { errors } : {})}
    />,
    status,
  );
}

async function accept(w: Web) {
  const token = w.params.token ?? "";
  const name = w.form.get("name")?.trim();
  const password = w.form.get("password");
  const proof = proofOf(w);
  const me = signedIn(w);
  try {
    const r = await acceptInvitation(
      w.app,
      { token, ...(proof ? { proof } : {}), ...(password ? { password } : {}), ...(name ? { name } : {}) },
      { signedInUserId: me, address: w.meta.ip },
    );
    const session = await signInJoined(
      w.app,
      w.session!,
      { userId: r.user.id, orgId: r.org.id, confirmed: r.proven_by !== "sign_in" },
      w.meta,
    );
    setSessionCookie(w, session);
    if (session.stage === "enrol") {
      setFlash(w, "mfa_required_first");
      return redirect(w, "/account/security");
    }
    setFlash(w, "invitation_accepted");
    return redirect(w, "/home");
  } catch (e) {
    // A dead link or an org that takes no one in now: the error page, not a problem beside a field.
    if (!(e instanceof ServiceError) || e.code === "invitation_invalid" || e.code.startsWith("org_")) throw e;
    return show(w, fieldErrors(e), e.status);
  }
}

async function prove(w: Web) {
  const sent = await sendInvitationProof(w.app, w.params.token ?? "");
  return render(w, <InviteSentPage f={frame(w, TITLE)} email={sent.email} />);
}

export const inviteRoutes: WebRoute[] = [
  { method: "GET", path: "/invite/:token", access: "guest", handler: (w) => show(w) },
  { method: "POST", path: "/invite/:token", access: "guest", handler: accept },
  { method: "POST", path: "/invite/:token/confirm", access: "guest", handler: prove },
  { method: "GET", path: "/invite/:token/p/:proof", access: "guest", handler: (w) => show(w) },
  { method: "POST", path: "/invite/:token/p/:proof", access: "guest", handler: accept },
];
