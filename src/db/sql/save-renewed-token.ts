// Token renewal's statements (src/domain/connect/renew.ts): the claim of a chunk of channels, what renewing them
// needs read in one statement, and what a renewal stores the moment the network answers (the grant's new expiry,
// only while the renewal's claim, its fencing token, is still on the row, and the channel's sealed secrets).
// Hand-written: channels.refresh runs them for every channel it renews, and building query-builder trees for them
// cost more than SQLite took to run them.
import { marks } from "../raw.ts";
import { shaped } from "./statement.ts";

/**
 * Claims those of `n` channels whose token expires by the limit and that no live claim holds: (fence, claimed
 * until, …channel IDs, expiry limit, now).
 */
export const claimRenewals = shaped<[n: number], unknown[]>(
  (n) => `UPDATE channel_grants SET renew_claim = ?, renew_claimed_until = ?
    WHERE channel_id IN (${marks(n)}) AND token_expires_at <= ?
      AND (renew_claimed_until IS NULL OR renew_claimed_until < ?)`,
  [2],
);

export interface ClaimedRow {
  id: string;
  org_id: string;
  provider: string;
  status: string;
  secrets: string | null;
  token_expires_at: number | null;
  /** The developer app the channel renews through, null when it is gone (or another org's: never used). */
  app_id: string | null;
  app_org_id: string | null;
  client_id: string | null;
  client_secret: string | null;
}

/**
 * The claimed channels of `n` with their developer apps, (…channel IDs, fence). An org's channel renews through its
 * own org's app or an install app (no org), never another org's.
 */
export const loadClaimedRenewals = shaped<[n: number], unknown[], ClaimedRow>(
  (n) => `SELECT c.id, c.org_id, c.provider, c.status, c.secrets, g.token_expires_at, a.id AS app_id,
      a.org_id AS app_org_id, a.client_id, a.client_secret
    FROM channel_grants g
    JOIN channels c ON c.id = g.channel_id
    LEFT JOIN developer_apps a ON a.id = g.app_id AND (a.org_id = c.org_id OR a.org_id IS NULL)
    WHERE g.channel_id IN (${marks(n)}) AND g.renew_claim = ?`,
  [2],
);

/** Clears a claim on channels, only where it is still this one: (fence, …channel IDs). */
export const releaseRenewals = shaped<[n: number], unknown[]>(
  (n) => `UPDATE channel_grants SET renew_claim = NULL, renew_claimed_until = NULL
    WHERE renew_claim = ? AND channel_id IN (${marks(n)})`,
  [2],
);

/** One renewal to store: (channel ID, fence, new expiry or null, now, sealed secrets). */
const ROW = "(CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT))";
const values = (rows: number) => `(VALUES ${Array.from({ length: rows }, () => ROW).join(", ")})`;
const grantSet = `token_expires_at = v.column3, refreshed_at = v.column4, updated_at = v.column4,
      renew_claim = NULL, renew_claimed_until = NULL`;

/**
 * Stores `rows` renewals, each row as ROW says: the grant's new expiry and the claim cleared, only where the claim
 * is still that row's fence; returns the channels stored. On Postgres one statement also stores those channels'
 * secrets (no transaction needed); on SQLite `saveRenewedSecrets` does, in the same transaction.
 */
export const saveRenewedGrants = shaped<[rows: number], unknown[], { channel_id: string }>(
  (rows) => ({
    sqlite: `UPDATE channel_grants AS g SET ${grantSet}
      FROM ${values(rows)} AS v
      WHERE g.channel_id = v.column1 AND g.renew_claim = v.column2
      RETURNING channel_id`,
    postgres: `WITH v AS ${values(rows)},
      g AS (UPDATE channel_grants AS g SET ${grantSet} FROM v
        WHERE g.channel_id = v.column1 AND g.renew_claim = v.column2 RETURNING g.channel_id)
      UPDATE channels AS c SET secrets = v.column5, updated_at = v.column4
      FROM v JOIN g ON g.channel_id = v.column1
      WHERE c.id = v.column1
      RETURNING c.id AS channel_id`,
  }),
  [2],
);

/** SQLite: the renewed channels' sealed secrets, rows as ROW says (Postgres stored them with the grants). */
export const saveRenewedSecrets = shaped<[rows: number], unknown[]>(
  (rows) => ({
    sqlite: `UPDATE channels AS c SET secrets = v.column5, updated_at = v.column4
      FROM ${values(rows)} AS v WHERE c.id = v.column1`,
    postgres: null,
  }),
  [2],
);
