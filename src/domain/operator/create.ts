// An operator creates an org (POST /v1/operator/orgs): the org, its data key, its limits and reference, and the
// first owner's invitation, in one transaction with its audit row. The answer carries the invitation's one-time
// link (the operator passes it on, or svc mails it with `send_email`).
import * as v from "valibot";
import type { App } from "../../app/context.ts";
import { requireMailer } from "../../mail/mailer.ts";
import { audit } from "../audit/service.ts";
import type { OperatorActor } from "../identity/auth/operator.ts";
import {
  InvitationCreate,
  insertInvitation,
  invitationUrl,
  mailInvitation,
  presentInvitation,
} from "../identity/invitations/service.ts";
import { email } from "../identity/users/service.ts";
import { insertOrg } from "../orgs/service.ts";
import { inTx } from "../tx.ts";
import { name, parse } from "../validate.ts";
import { operatorInOrg } from "./actor.ts";
import { assertRefFree, loadOrg, orgColumns, presentOperatorOrg, refTaken } from "./orgs.ts";
import { externalRef, Limits } from "./schema.ts";

const OrgCreate = v.strictObject({
  name: name(),
  owner_email: email,
  external_ref: v.optional(externalRef),
  limits: v.optional(Limits),
  send_email: v.optional(v.boolean()),
});

export async function createOrgAsOperator(app: App, op: OperatorActor, input: unknown) {
  const b = parse(OrgCreate, input);
  const mailer = b.send_email ? requireMailer(app) : null;
  const made = await refTaken(() =>
    inTx(app, async (tx) => {
      await assertRefFree(tx, b.external_ref, null);
      const org = await insertOrg(tx, app, b.name);
      const set = orgColumns({ external_ref: b.external_ref, limits: b.limits }, app.clock.now());
      await tx.updateTable("orgs").set(set).where("id", "=", org.id).execute();
      const actor = operatorInOrg(op, org.id);
      await audit(tx, app, actor, {
        action: "org.create",
        target: org.id,
        detail: { name: b.name, external_ref: b.external_ref ?? null },
      });
      // The invitation is checked against the org's own members limit, like any other.
      const inv = await insertInvitation(
        tx,
        app,
        actor,
        parse(InvitationCreate, { email: b.owner_email, role: "owner" }),
      );
      return { org: await loadOrg(tx, org.id), ...inv };
    }),
  );
  const url = invitationUrl(app, made.token);
  if (mailer) await mailInvitation(app, mailer, made.row, made.orgName, url);
  return { ...presentOperatorOrg(made.org), owner_invitation: presentInvitation(made.row, url) };
}
