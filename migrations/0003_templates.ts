// Templates (shared by both modes, so no livemode) and their immutable versions. A deleted template keeps its row
// for posts that reference it, and frees its key: the key is unique per brand only among templates not deleted.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "templates",
  up: (d) => [
    `CREATE TABLE templates (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
      brand_id TEXT NOT NULL,
      key TEXT NOT NULL,
      name TEXT NOT NULL,
      approval TEXT NOT NULL,
      latest_version INTEGER NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      deleted_at BIGINT,
      FOREIGN KEY (org_id, brand_id) REFERENCES brands(org_id, id) ON DELETE CASCADE
    )`,
    // Both dialects take a partial unique index, so a deleted template's key is free again.
    `CREATE UNIQUE INDEX templates_brand_key ON templates (brand_id, key) WHERE deleted_at IS NULL`,
    `CREATE INDEX templates_org ON templates (org_id, id)`,
    `CREATE TABLE template_versions (
      template_id TEXT NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
      version INTEGER NOT NULL,
      source TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (template_id, version)
    )`,
    // A post names `key@N` and expects the text it was approved with: the database refuses to rewrite a version.
    ...(d === "postgres"
      ? [
          `CREATE FUNCTION template_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'template versions are immutable'; END $$`,
          `CREATE TRIGGER template_versions_immutable BEFORE UPDATE ON template_versions
          FOR EACH ROW EXECUTE FUNCTION template_versions_immutable()`,
        ]
      : [
          `CREATE TRIGGER template_versions_immutable BEFORE UPDATE ON template_versions
          BEGIN SELECT RAISE(ABORT, 'template versions are immutable'); END`,
        ]),
  ],
} satisfies Migration;
