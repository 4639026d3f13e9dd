import type { ApiKeysTable } from "../../../db/schema.ts";
import { iso, isoOrNull } from "../../../lib/clock.ts";

export const presentApiKey = (k: ApiKeysTable, secret?: string) => ({
  id: k.id,
  object: "api_key" as const,
  name: k.name,
  hint: k.hint,
  livemode: k.livemode === 1,
  scopes: k.scopes ? (JSON.parse(k.scopes) as string[]) : [],
  brand: k.brand_id,
  ...(secret ? { secret } : {}),
  created_at: iso(k.created_at),
  last_used_at: isoOrNull(k.last_used_at),
  expires_at: isoOrNull(k.expires_at),
  revoked_at: isoOrNull(k.revoked_at),
});
