// What a sign-in keeps while it is under way, sealed with the org's data key and bound to the row: the PKCE
// verifier until the callback, then the network's tokens until the person has picked the accounts.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";

const at = (id: string, column: "code_verifier" | "tokens") => ({ table: "connect_states", row: id, column });

export const sealState = (
  db: Db | Tx,
  app: App,
  orgId: string,
  id: string,
  column: "code_verifier" | "tokens",
  value: string,
) => app.keys.seal(db, orgId, at(id, column), value);

export const openState = (
  db: Db | Tx,
  app: App,
  orgId: string,
  id: string,
  column: "code_verifier" | "tokens",
  sealed: string,
) => app.keys.open(db, orgId, at(id, column), sealed);
