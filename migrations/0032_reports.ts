// Reports (interface.md "Engagement, ads, analytics, newsletters, reports"): share links to one brand's month
// (only the token's hash is stored; withdrawn links keep their row for the audit trail) and the monthly email's
// recipients (at most 20 per brand; the month last sent makes each address get one email per month). A report
// itself is computed on request and stores nothing; two indexes let it read only index pages. Expand only: two
// new tables and two indexes (on Postgres built inside the migration's transaction, which holds writes to
// target_engagement and posts for as long as the build takes).
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "reports",
  up: () => [
    `CREATE TABLE report_share_links (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      brand_id TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
      livemode INTEGER NOT NULL,
      month TEXT NOT NULL,
      token_hash TEXT NOT NULL UNIQUE,
      hint TEXT NOT NULL,
      created_by_user TEXT,
      created_by_key TEXT,
      created_by_task TEXT,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      revoked_at BIGINT
    )`,
    `CREATE INDEX report_share_links_brand ON report_share_links (org_id, brand_id, id)`,
    `CREATE TABLE report_recipients (
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      brand_id TEXT NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
      email TEXT NOT NULL,
      last_sent_month TEXT,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (brand_id, email)
    )`,
    `CREATE INDEX report_recipients_org ON report_recipients (org_id, brand_id)`,
    // A report reads a brand's published targets of two periods: this index answers it without touching the table
    // (a month of a brand with 100,000 targets read 55 ms of table rows on SQLite, 5 ms of this index).
    `CREATE INDEX target_engagement_report ON target_engagement
      (org_id, livemode, published_at, post_id, provider, likes, reposts, replies, quotes, views)`,
    // ...and keeps to the brand's by a post's brand without reading the post's row (its text is most of it).
    `CREATE INDEX posts_id_brand ON posts (id, brand_id)`,
  ],
} satisfies Migration;
