// Authenticating an API key: every request with a key runs these, so they are plain text (no query builder).
import { statement } from "./statement.ts";

export interface ApiKeyRow {
  id: string;
  lineage_id: string;
  org_id: string;
  livemode: number;
  scopes: string | null;
  brand_id: string | null;
  expires_at: number | null;
  revoked_at: number | null;
  status: string;
  status_note: string | null;
}

/**
 * The key by its hash (api_keys.hash is unique), with its org's status. A key never rolled is its own lineage
 * (migration 0010).
 */
export const apiKeyByHash = statement<[hash: string], ApiKeyRow>(
  `SELECT k.id, COALESCE(k.lineage_id, k.id) AS lineage_id, k.org_id, k.livemode, k.scopes, k.brand_id, k.expires_at, k.revoked_at, o.status, o.status_note
   FROM api_keys k JOIN orgs o ON o.id = k.org_id WHERE k.hash = ?`,
);

/** When the key was last used; the caller writes it at most once a minute per key. */
export const touchApiKey = statement<[now: number, id: string]>(
  "UPDATE api_keys SET last_used_at = ? WHERE id = ?",
);
