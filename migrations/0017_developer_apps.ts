// Developer apps: the OAuth client (ID and sealed secret) a network's sign-in connection goes through. An org
// registers its own (org_id set); the install registers apps every org may use (org_id null, `svc admin apps`).
// Names are unique per owner: the org, or the install (the expression index reads a null org as '').
// Channels name the app they were connected through without a foreign key, so removing an app leaves its channels
// working until their token needs renewal (interface.md "Developer apps").
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "developer_apps",
  up: () => [
    `CREATE TABLE developer_apps (
      id TEXT PRIMARY KEY,
      org_id TEXT REFERENCES orgs(id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      name TEXT NOT NULL,
      client_id TEXT NOT NULL,
      client_secret TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE UNIQUE INDEX developer_apps_name ON developer_apps ((COALESCE(org_id, '')), name)`,
    `CREATE INDEX developer_apps_org ON developer_apps (org_id, id)`,
  ],
} satisfies Migration;
