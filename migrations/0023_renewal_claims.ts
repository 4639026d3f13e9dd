// A token renewal's claim on its channel (src/domain/connect/renew.ts): the network's token request is made
// outside any transaction, so a renewal first claims the grant (a random fencing token and a lease), then asks the
// network, then saves the tokens only if its claim is still the one on the row. A second worker finding a live
// claim leaves the channel alone, so one refresh token is never sent twice by svc. Expand only: two nullable
// columns the previous release ignores.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "renewal_claims",
  up: () => [
    "ALTER TABLE channel_grants ADD COLUMN renew_claim TEXT",
    "ALTER TABLE channel_grants ADD COLUMN renew_claimed_until BIGINT",
  ],
} satisfies Migration;
