// UserToken as the API shows it (reference §4): never the secret, which is shown once to the CLI that collects it.
import type { UserTokensTable } from "../../../db/schema.ts";
import { iso, isoOrNull } from "../../../lib/clock.ts";

export const presentUserToken = (t: UserTokensTable) => ({
  id: t.id,
  object: "user_token" as const,
  name: t.name,
  hint: t.hint,
  livemode: t.livemode === 1,
  created_at: iso(t.created_at),
  last_used_at: isoOrNull(t.last_used_at),
});
