// Endpoint signing secrets: `whsec_` + 32 base62 characters, sealed with the org's data key, bound to the row
// and column (ARCHITECTURE rule 6). During a roll's overlap the previous secret signs a second v1.
import type { App } from "../../app/context.ts";
import { randomBase62 } from "../../crypto/hash.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { WebhookEndpointsTable } from "../../db/tables/webhooks.ts";

export const newEndpointSecret = () => `whsec_${randomBase62(32)}`;

type Column = "secret" | "previous_secret";
const at = (id: string, column: Column) => ({ table: "webhook_endpoints", row: id, column });

export const sealSecret = (db: Db | Tx, app: App, orgId: string, id: string, column: Column, plain: string) =>
  app.keys.seal(db, orgId, at(id, column), plain);

// Opened secrets by sealed value, so a busy worker does not decrypt the same secret for every batch. A sealed
// value names its row and column (the seal is bound to them), so equal text means the same secret.
const opened = new WeakMap<App, Map<string, string>>();

async function open(db: Db | Tx, app: App, orgId: string, id: string, column: Column, sealed: string) {
  let cache = opened.get(app);
  if (!cache) {
    cache = new Map();
    opened.set(app, cache);
  }
  const key = `${id}:${column}:${sealed}`;
  let plain = cache.get(key);
  if (plain === undefined) {
    plain = await app.keys.open(db, orgId, at(id, column), sealed);
    if (cache.size >= 1000) cache.clear();
    cache.set(key, plain);
  }
  return plain;
}

/** The secrets to sign with now, newest first: the current one, and the previous one while it overlaps. */
export async function signingSecrets(
  db: Db | Tx,
  app: App,
  e: Pick<WebhookEndpointsTable, "id" | "org_id" | "secret" | "previous_secret" | "previous_secret_until">,
  now: number,
): Promise<string[]> {
  const out = [await open(db, app, e.org_id, e.id, "secret", e.secret)];
  if (e.previous_secret && e.previous_secret_until !== null && e.previous_secret_until > now) {
    out.push(await open(db, app, e.org_id, e.id, "previous_secret", e.previous_secret));
  }
  return out;
}
