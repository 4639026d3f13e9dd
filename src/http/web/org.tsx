// /org: the Org page (name, status and note; usage against limits for owners and admins; renaming, the Billing
// link and deleting for owners), through the orgs, billing and operator domain functions as the member.

import { OrgDeletedPage, OrgPage, type OrgPageProps } from "../../../views/org.tsx";
import { billingLink } from "../../domain/billing/handoff.ts";
import { confirmPassword } from "../../domain/identity/sessions/signin.ts";
import { deleteOrg } from "../../domain/operator/delete.ts";
import { getOrg, updateOrg } from "../../domain/orgs/service.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

type Extra = Pick<OrgPageProps, "rename" | "remove">;

async function page(w: Web, extra: Extra = {}, status = 200) {
  const m = w.member!;
  const org = await getOrg(w.app, m.actor);
  const owner = m.org.role === "owner";
  // A suspended org never gets here: the route is a read, so its members see only the notice (index.tsx).
  const changeable = owner && org.status === "active";
  return render(
    w,
    <OrgPage f={frame(w, "Org", "org")} org={org} canRename={changeable} canDelete={changeable} {...extra} />,
    status,
  );
}

async function rename(w: Web) {
  const name = w.form.get("name") ?? "";
  try {
    await updateOrg(w.app, w.member!.actor, { name });
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, { rename: { name, errors: fieldErrors(e) } }, e.status);
  }
  setFlash(w, "org_renamed");
  return redirect(w, "/org");
}

/** A fresh signed token each time it is followed; works while the org is suspended (not an org write). */
async function billing(w: Web) {
  return redirect(w, await billingLink(w.app, w.member!.actor));
}

/** The password is asked for every time (not only outside sudo mode): this cannot be undone. */
async function remove(w: Web) {
  const confirm = w.form.get("confirm") ?? "";
  const password = w.form.get("password") ?? "";
  try {
    if (w.member!.org.role !== "owner")
      throw new ServiceError(403, "forbidden", "Only an owner can delete the org.");
    if (!password)
      throw new ServiceError(403, "reauthentication_required", "Confirm your password to delete the org.", {
        param: "password",
      });
    await confirmPassword(w.app, w.session!, password, w.meta.ip);
    await deleteOrg(w.app, w.member!.actor, confirm, { confirmedAt: w.session!.confirmed_at });
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, { remove: { confirm, errors: fieldErrors(e) } }, e.status);
  }
  return redirect(w, "/org/deleted");
}

async function deleted(w: Web) {
  return render(w, <OrgDeletedPage f={frame(w, "Org deleted")} />);
}

export const orgPageRoutes: WebRoute[] = [
  { method: "GET", path: "/org", access: "member", org: "read", handler: (w) => page(w) },
  { method: "POST", path: "/org/name", access: "member", org: "write", handler: rename },
  // Owners follow the billing hand-off even while suspended (interface.md); the handler checks the role.
  { method: "GET", path: "/org/billing", access: "member", org: "none", handler: billing },
  { method: "POST", path: "/org/delete", access: "member", org: "write", handler: remove },
  // Reached after the deletion, when the person may be in no org any more.
  { method: "GET", path: "/org/deleted", access: "guest", handler: deleted },
];
