// The Members page: people and roles, invitations, inviting. Owner changes take the session's sudo mode.
import { MembersPage } from "../../../views/members.tsx";
import {
  createInvitation,
  listInvitations,
  revokeInvitation,
} from "../../domain/identity/invitations/service.ts";
import { deleteMember, listMembers, updateMember } from "../../domain/identity/members/service.ts";
import { confirmPassword } from "../../domain/identity/sessions/signin.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";
import { sudoNeeded } from "./sudo.ts";

async function page(
  w: Web,
  extra: {
    created?: { url: string; email: string; emailed: boolean };
    errors?: Record<string, string>;
    invite?: { email: string; role: string };
  } = {},
  status = 200,
) {
  const actor = w.member!.actor;
  const canManage = actor.scopes.has("members:write");
  const members = await listMembers(w.app, actor);
  const invitations = canManage ? (await listInvitations(w.app, actor, { limit: 100 })).data : null;
  return render(
    w,
    <MembersPage
      f={frame(w, "Members", "members")}
      members={members}
      invitations={invitations}
      canManage={canManage}
      offerConfirm={actor.role === "owner" && sudoNeeded(w)}
      created={extra.created}
      errors={extra.errors}
      invite={extra.invite}
    />,
    status,
  );
}

/** Runs a change; on a refusal shows the page with the message, else goes back to the page with a flash. */
async function change(
  w: Web,
  fn: () => Promise<unknown>,
  flash: "member_changed" | "member_removed" | "invitation_revoked",
) {
  try {
    await fn();
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, { errors: { "": e.message } }, e.status);
  }
  setFlash(w, flash);
  return redirect(w, "/members");
}

const sudo = (w: Web) => ({ confirmedAt: w.session!.confirmed_at });

async function invite(w: Web) {
  const email = w.form.get("email") ?? "";
  const role = w.form.get("role") ?? "";
  try {
    const inv = await createInvitation(
      w.app,
      w.member!.actor,
      { email, role, send_email: w.form.get("send_email") === "true" },
      sudo(w),
    );
    return page(w, { created: { url: inv.url!, email: inv.email, emailed: inv.emailed } }, 201);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, { errors: fieldErrors(e), invite: { email, role } }, e.status);
  }
}

async function confirm(w: Web) {
  try {
    await confirmPassword(w.app, w.session!, w.form.get("password") ?? "", w.meta.ip);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, { errors: fieldErrors(e) }, e.status);
  }
  setFlash(w, "confirmed");
  return redirect(w, "/members");
}

export const memberPageRoutes: WebRoute[] = [
  { method: "GET", path: "/members", access: "member", org: "read", handler: (w) => page(w) },
  { method: "POST", path: "/members/invite", access: "member", org: "write", handler: invite },
  // Confirming the password only renews the session's sudo mode.
  { method: "POST", path: "/members/confirm", access: "member", org: "none", handler: confirm },
  {
    method: "POST",
    path: "/members/:id/role",
    access: "member",
    org: "write",
    handler: (w) =>
      change(
        w,
        () =>
          updateMember(
            w.app,
            w.member!.actor,
            w.params.id ?? "",
            { role: w.form.get("role") ?? "" },
            sudo(w),
          ),
        "member_changed",
      ),
  },
  {
    method: "POST",
    path: "/members/:id/remove",
    access: "member",
    org: "write",
    handler: (w) =>
      change(w, () => deleteMember(w.app, w.member!.actor, w.params.id ?? "", sudo(w)), "member_removed"),
  },
  {
    method: "POST",
    path: "/members/invitations/:id/revoke",
    access: "member",
    org: "write",
    handler: (w) =>
      change(
        w,
        () => revokeInvitation(w.app, w.member!.actor, w.params.id ?? "", sudo(w)),
        "invitation_revoked",
      ),
  },
];
