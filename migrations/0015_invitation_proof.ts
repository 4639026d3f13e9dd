// Invitations prove the address before an account is made for it: a second secret, mailed only to the invited
// address (with the invitation, or when the person asks on the invitation page), whose SHA-256 is kept here. The
// link an admin is shown never carries it. Expand only: two nullable columns the previous release ignores.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "invitation_proof",
  up: () => [
    "ALTER TABLE invitations ADD COLUMN proof_hash TEXT",
    "ALTER TABLE invitations ADD COLUMN proof_sent_at BIGINT",
  ],
} satisfies Migration;
