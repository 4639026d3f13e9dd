// "Someone joined": the org's owners hear of a new member, except the owner who added them. Registered in
// src/boot.ts; runs in the transaction that adds the member. Members belong to the org, not a mode, so this is
// raised whatever mode the person who added them was in.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { MemberJoined } from "../identity/members/hooks.ts";
import { raiseNotifications } from "./raise.ts";
import { except, membersWithRoles } from "./recipients.ts";

export async function notifyOnJoin(tx: Tx, app: App, j: MemberJoined): Promise<void> {
  const owners = except(await membersWithRoles(tx, j.orgId, ["owner"]), j.addedBy).filter(
    (id) => id !== j.userId,
  );
  if (owners.length === 0) return;
  const who = await tx
    .selectFrom("users")
    .select(["email", "name"])
    .where("id", "=", j.userId)
    .executeTakeFirst();
  const label = who ? (who.name ? `${who.name} (${who.email})` : who.email) : j.userId;
  await raiseNotifications(tx, app, [
    {
      orgId: j.orgId,
      type: "member.joined",
      objectId: j.userId,
      subject: `${label} joined as ${j.role}`,
      body: `${label} is now a member of the org with the role ${j.role}.`,
      link: "/members",
      recipients: owners,
    },
  ]);
}
