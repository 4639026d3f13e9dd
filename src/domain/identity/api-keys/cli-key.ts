// The fallback CLI sign-in (interface.md Authentication 3): the dashboard's /cli?device=<name> page issues a
// full-access API key in the requested mode and shows it once, for the person to paste at the CLI's prompt.
// "Full access" is what the person's role may grant: every integration scope for admins and owners (a key listing
// none); for editors and viewers, the integration scopes their role holds, listed.
import * as v from "valibot";
import type { App } from "../../../app/context.ts";
import { hintOf, newApiKeySecret } from "../../../crypto/credentials.ts";
import { sha256hex } from "../../../crypto/hash.ts";
import type { ApiKeysTable } from "../../../db/schema.ts";
import { ServiceError } from "../../../lib/errors.ts";
import { newId } from "../../../lib/ids.ts";
import type { Actor } from "../../actor.ts";
import { audit } from "../../audit/service.ts";
import { INTEGRATION_SCOPES, scopesOfRole } from "../../scopes.ts";
import { inTx } from "../../tx.ts";
import { parse, rule } from "../../validate.ts";
import { requireRecentAuth } from "../auth/sudo.ts";
import { presentApiKey } from "./present.ts";

const CliKeyInput = v.strictObject({
  device_name: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, rule("device_name_invalid", "device_name must be 1 to 100 characters.")),
    v.maxLength(94, rule("device_name_invalid", "device_name must be 1 to 94 characters.")),
  ),
  livemode: v.boolean(),
});

/** Issues the key (sudo mode: creating a key needs a recent password confirmation). The secret is in this answer only. */
export async function issueCliKey(
  app: App,
  actor: Actor,
  input: { device_name: unknown; livemode: unknown },
  opts: { confirmedAt: number | null | undefined },
) {
  if (actor.kind !== "user" || !actor.userId || actor.userTokenId)
    throw new ServiceError(403, "forbidden", "A CLI key is issued from a dashboard session only.");
  requireRecentAuth(app, opts.confirmedAt);
  const b = parse(CliKeyInput, input);
  const held = scopesOfRole(actor.role ?? "viewer");
  const integration = INTEGRATION_SCOPES.filter((s) => held.has(s));
  const scopes = integration.length === INTEGRATION_SCOPES.length ? null : integration;
  const secret = newApiKeySecret(b.livemode);
  const now = app.clock.now();
  const id = newId("key", now);
  const row: ApiKeysTable = {
    id,
    // A key of its own: the first of its roll chain.
    lineage_id: id,
    rolled_to: null,
    org_id: actor.orgId,
    livemode: b.livemode ? 1 : 0,
    name: `CLI: ${b.device_name}`,
    hash: sha256hex(secret),
    hint: hintOf(secret),
    scopes: scopes ? JSON.stringify(scopes) : null,
    brand_id: null,
    expires_at: null,
    rolled_from: null,
    created_by_user: actor.userId,
    created_by_key: null,
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  };
  return inTx(app, async (tx) => {
    await tx.insertInto("api_keys").values(row).execute();
    await audit(
      tx,
      app,
      { ...actor, livemode: b.livemode },
      {
        action: "api_key.create",
        target: row.id,
        detail: { name: row.name, scopes: scopes ?? [], brand: null, via: "cli" },
      },
    );
    return presentApiKey(row, secret);
  });
}
