// A person's notification preferences in one org: per type, email on or off (defaults from the table in
// interface.md) and immediate or the daily summary at 08:00 in their time zone, which they set here too (it is
// theirs, not the org's). Stored only where they differ from nothing: a type never touched reads its default.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { Actor } from "../actor.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { requirePerson } from "./guard.ts";
import { PreferencesUpdate } from "./schema.ts";
import {
  type Delivery,
  EMAIL_DEFAULT,
  NOTIFICATION_TYPES,
  type NotificationType,
  TYPE_LABEL,
} from "./types.ts";

export interface TypePreference {
  type: NotificationType;
  label: string;
  email: boolean;
  delivery: Delivery;
}

export async function readPreferences(db: Tx | Db, userId: string, orgId: string) {
  const [user, rows] = await Promise.all([
    db.selectFrom("users").select("timezone").where("id", "=", userId).executeTakeFirstOrThrow(),
    db
      .selectFrom("notification_preferences")
      .select(["type", "email", "delivery"])
      .where("user_id", "=", userId)
      .where("org_id", "=", orgId)
      .execute(),
  ]);
  const byType = new Map(rows.map((r) => [r.type, r]));
  const types: TypePreference[] = NOTIFICATION_TYPES.map((t) => {
    const r = byType.get(t);
    return {
      type: t,
      label: TYPE_LABEL[t],
      email: r ? r.email === 1 : EMAIL_DEFAULT[t],
      delivery: r?.delivery ?? "immediate",
    };
  });
  return { object: "notification_preferences" as const, org: orgId, timezone: user.timezone, types };
}

export async function getPreferences(app: App, actor: Actor) {
  const userId = requirePerson(actor);
  return readPreferences(app.db, userId, actor.orgId);
}

/** Writes one type's preference for a person in an org (also used by the unsubscribe link). */
export async function setTypePreference(
  tx: Tx,
  app: App,
  userId: string,
  orgId: string,
  type: NotificationType,
  change: { email?: boolean; delivery?: Delivery },
): Promise<void> {
  const cur = await tx
    .selectFrom("notification_preferences")
    .select(["email", "delivery"])
    .where("user_id", "=", userId)
    .where("org_id", "=", orgId)
    .where("type", "=", type)
    .executeTakeFirst();
  const email = (change.email ?? (cur ? cur.email === 1 : EMAIL_DEFAULT[type])) ? 1 : 0;
  const delivery = change.delivery ?? cur?.delivery ?? "immediate";
  const now = app.clock.now();
  if (cur)
    await tx
      .updateTable("notification_preferences")
      .set({ email, delivery, updated_at: now })
      .where("user_id", "=", userId)
      .where("org_id", "=", orgId)
      .where("type", "=", type)
      .execute();
  else
    await tx
      .insertInto("notification_preferences")
      .values({ user_id: userId, org_id: orgId, type, email, delivery, updated_at: now })
      .execute();
}

export async function updatePreferences(app: App, actor: Actor, input: unknown) {
  const userId = requirePerson(actor);
  const b = parse(PreferencesUpdate, input);
  return inTx(app, async (tx) => {
    if (b.timezone !== undefined)
      await tx
        .updateTable("users")
        .set({ timezone: b.timezone, updated_at: app.clock.now() })
        .where("id", "=", userId)
        .execute();
    for (const t of b.types ?? [])
      await setTypePreference(tx, app, userId, actor.orgId, t.type, {
        ...(t.email !== undefined ? { email: t.email } : {}),
        ...(t.delivery !== undefined ? { delivery: t.delivery } : {}),
      });
    return readPreferences(tx, userId, actor.orgId);
  });
}
