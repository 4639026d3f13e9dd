// What a token renewal stores the moment the network answers (src/domain/connect/renew.ts): the grant's new expiry,
// only while the renewal's claim (its fencing token) is still on the row, and the channel's sealed secrets. Hand-
// written: channels.refresh runs them for every channel it renews, and the query builder cost more than SQLite.
import { statement } from "./statement.ts";

/** The new expiry, the claim cleared; returns the row only when the claim was still ours. */
export const saveRenewedGrant = statement<
  [expiresAt: number | null, now: number, now: number, channelId: string, fence: string],
  { channel_id: string }
>(
  `UPDATE channel_grants SET token_expires_at = ?, refreshed_at = ?, updated_at = ?, renew_claim = NULL,
     renew_claimed_until = NULL
   WHERE channel_id = ? AND renew_claim = ? RETURNING channel_id`,
);

/** The renewed tokens, sealed. */
export const saveRenewedSecrets = statement<[sealed: string, now: number, channelId: string]>(
  "UPDATE channels SET secrets = ?, updated_at = ? WHERE id = ?",
);
