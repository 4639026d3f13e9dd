// When a password was generated and printed (`svc admin bootstrap` without --password-stdin, or the operator's
// `svc admin users reset-password` without one): it sits in a terminal's scrollback and maybe an install log, so
// the dashboard asks the person to choose their own until they do. Expand only: a nullable column the previous
// release ignores. (Numbered 0019: 0015, 0017 and 0018 are taken by changes in flight.)
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "printed_password",
  up: () => ["ALTER TABLE users ADD COLUMN password_printed_at BIGINT"],
} satisfies Migration;
