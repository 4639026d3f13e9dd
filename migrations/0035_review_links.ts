// Client review links: an account-free link to one brand's posts waiting for approval, where a client approves
// or rejects each. Only the token's SHA-256 is kept (the link is shown once); a link expires and can be
// withdrawn. A decision made through a link is the link's: posts and audit rows name it in columns of their own
// (`reviewed_by_link`, `review_link_id`), not a member's. Expand only: a new table and nullable columns the
// previous release ignores.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "review_links",
  up: () => [
    `CREATE TABLE review_links (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      brand_id TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      token_hash TEXT NOT NULL UNIQUE,
      created_by_user TEXT,
      created_by_key TEXT,
      expires_at BIGINT NOT NULL,
      withdrawn_at BIGINT,
      last_used_at BIGINT,
      created_at BIGINT NOT NULL
    )`,
    "CREATE INDEX review_links_org ON review_links (org_id, livemode, id)",
    "ALTER TABLE posts ADD COLUMN reviewed_by_link TEXT",
    "ALTER TABLE audit_events ADD COLUMN review_link_id TEXT",
  ],
} satisfies Migration;
