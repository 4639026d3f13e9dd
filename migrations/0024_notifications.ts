// Notifications (interface.md "Notifications and request log"): one row per person per thing they should hear
// about, the person's email preferences per org and type, and what the email side needs: headers on the mail
// outbox (List-Unsubscribe), an index to count a person's mail of the last hour (30 per person per hour), and
// the nonces of unsubscribe links already used (a link works once). Expand only: new tables, a nullable column
// and indexes the previous release ignores.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "notifications",
  up: () => [
    `CREATE TABLE notifications (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      object_id TEXT,
      subject TEXT NOT NULL,
      body TEXT NOT NULL,
      link TEXT NOT NULL,
      email TEXT NOT NULL,
      mail_id TEXT,
      read_at BIGINT,
      created_at BIGINT NOT NULL
    )`,
    // The list (newest first) and the bell's unread count: both read one person's rows in one org.
    `CREATE INDEX notifications_user ON notifications (user_id, org_id, id)`,
    `CREATE INDEX notifications_unread ON notifications (user_id, org_id) WHERE read_at IS NULL`,
    // notifications.send reads only rows still owed an email.
    `CREATE INDEX notifications_owed ON notifications (email, created_at) WHERE email IN ('immediate', 'digest')`,
    // "At most daily per channel": the last notification about an object.
    `CREATE INDEX notifications_object ON notifications (object_id, type, created_at)`,
    `CREATE INDEX notifications_age ON notifications (created_at)`,
    `CREATE TABLE notification_preferences (
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      email INTEGER NOT NULL,
      delivery TEXT NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (user_id, org_id, type)
    )`,
    `ALTER TABLE mail_outbox ADD COLUMN headers TEXT`,
    `CREATE INDEX mail_outbox_user ON mail_outbox (user_id, created_at)`,
    `CREATE TABLE unsubscribe_uses (
      nonce TEXT PRIMARY KEY,
      used_at BIGINT NOT NULL
    )`,
  ],
} satisfies Migration;
