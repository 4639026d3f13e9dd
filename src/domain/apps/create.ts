// Registering a developer app: an org's own (API and dashboard, channels:write) or the install's (`svc admin apps
// add`, through install.ts). The client secret is sealed before the row is written and never shown again.
import type * as v from "valibot";
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { DeveloperAppsTable } from "../../db/tables/connect.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { signInProviders, signInSpec } from "../../platforms/signin/specs.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentApp } from "./present.ts";
import { AppCreate } from "./schema.ts";
import { sealClientSecret } from "./seal.ts";

export const nameTaken = (name: string) =>
  invalid([problem("name_taken", `A developer app is already named ${name}.`, "name")]);

/** Refuses a name another app of the same owner (the org, or the install) has. */
export async function assertNameFree(tx: Tx, orgId: string | null, name: string, except?: string) {
  let q = tx
    .selectFrom("developer_apps")
    .select("id")
    .where("name", "=", name)
    .where("org_id", orgId === null ? "is" : "=", orgId);
  if (except) q = q.where("id", "<>", except);
  if (await q.executeTakeFirst()) throw nameTaken(name);
}

/** Checks, seals and stores a new app for an org, or for the install when orgId is null. */
export async function registerApp(
  tx: Tx,
  app: App,
  orgId: string | null,
  input: unknown,
): Promise<DeveloperAppsTable> {
  const b: v.InferOutput<typeof AppCreate> = parse(AppCreate, input);
  if (!signInSpec(b.provider))
    throw invalid([
      problem(
        "provider_invalid",
        `${b.provider} does not connect through a developer app; apps are for ${signInProviders.join(", ")}.`,
        "provider",
      ),
    ]);
  await assertNameFree(tx, orgId, b.name);
  const now = app.clock.now();
  const id = newId("app", now);
  const row: DeveloperAppsTable = {
    id,
    org_id: orgId,
    provider: b.provider,
    name: b.name,
    client_id: b.client_id,
    client_secret: await sealClientSecret(tx, app, orgId, id, b.client_secret),
    created_at: now,
    updated_at: now,
  };
  try {
    await tx.insertInto("developer_apps").values(row).execute();
  } catch (e) {
    if (isUniqueViolation(e, "developer_apps_name")) throw nameTaken(b.name);
    throw e;
  }
  return row;
}

export async function createApp(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "channels:write");
  return inTx(app, async (tx) => {
    const row = await registerApp(tx, app, actor.orgId, input);
    await audit(tx, app, actor, {
      action: "developer_app.create",
      target: row.id,
      detail: { provider: row.provider, name: row.name, client_id: row.client_id },
    });
    return presentApp(app.config.baseUrl)(row);
  });
}
