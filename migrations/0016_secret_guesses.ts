// Every guess at a secret (a password at sign-in, the current password, a second-factor or recovery code, a CLI
// sign-in's user code) counted in the database, so every process shares the count: per kind, per whose secret it
// is (an account, or for sign-in the address typed, known or not), and per client address, with '*' for the
// count over all addresses. sign_in_failures (0011) is no longer written; the release before this one still
// reads it. -- contract: the release after this one drops sign_in_failures.
// Also: an index to count a client address's pending CLI sign-ins (they are capped per address).
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "secret_guesses",
  up: () => [
    `CREATE TABLE secret_guesses (
      kind TEXT NOT NULL,
      subject TEXT NOT NULL,
      address TEXT NOT NULL,
      failures INTEGER NOT NULL,
      window_start BIGINT NOT NULL,
      locked_until BIGINT,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (kind, subject, address)
    )`,
    `CREATE INDEX secret_guesses_updated ON secret_guesses (updated_at)`,
    // Pending CLI sign-ins are capped per client address: counted by this index.
    `CREATE INDEX device_authorizations_client ON device_authorizations (client_ip, expires_at)`,
  ],
} satisfies Migration;
