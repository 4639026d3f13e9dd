// User tokens (`svc_user_…`): a person's CLI credential, bound to one mode, stored only as a SHA-256 hash.
// Issued by the device sign-in flow (the CLI work); verified in authenticate.ts.
import type { App } from "../../../app/context.ts";
import { hintOf, newUserToken } from "../../../crypto/credentials.ts";
import { sha256hex } from "../../../crypto/hash.ts";
import type { Tx } from "../../../db/index.ts";
import { newId } from "../../../lib/ids.ts";

export async function issueUserToken(
  tx: Tx,
  app: App,
  input: { userId: string; name: string; livemode: boolean; viaSso?: boolean },
) {
  const secret = newUserToken();
  const now = app.clock.now();
  const row = {
    id: newId("utok", now),
    user_id: input.userId,
    livemode: input.livemode ? (1 as const) : (0 as const),
    name: input.name,
    hash: sha256hex(secret),
    hint: hintOf(secret),
    via_sso: input.viaSso ? (1 as const) : (0 as const),
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  };
  await tx.insertInto("user_tokens").values(row).execute();
  return { id: row.id, secret };
}
