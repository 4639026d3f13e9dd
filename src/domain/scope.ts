// Lookups by ID within the actor's org and mode. Every get, update and delete by ID starts here: another org's ID
// and the other mode's ID read as no row at all (the caller answers 404, never 403, so IDs reveal nothing), and a
// string that is not an ID of the kind asked for never reaches the database.
import type { Kysely } from "kysely";
import type { Db, Tx } from "../db/index.ts";
import type { Bool, DB } from "../db/schema.ts";
import { isId, type Prefix } from "../lib/ids.ts";
import type { Actor } from "./actor.ts";

/** Tables whose rows belong to one org and one mode. */
type ScopedTable = {
  [K in keyof DB]: DB[K] extends { id: string; org_id: string; livemode: Bool } ? K : never;
}[keyof DB];

export async function rowInScope<T extends ScopedTable>(
  db: Db | Tx,
  actor: Actor,
  table: T,
  prefix: Prefix,
  id: string,
): Promise<DB[T] | undefined> {
  if (!isId(prefix, id)) return undefined;
  // One query for every such table: the builder cannot type a table chosen by a parameter, so it sees one shape.
  const scoped = db as unknown as Kysely<{ scoped: { id: string; org_id: string; livemode: Bool } }>;
  const row = await scoped
    .selectFrom(table as unknown as "scoped")
    .selectAll()
    .where("id", "=", id)
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .executeTakeFirst();
  return row as DB[T] | undefined;
}
