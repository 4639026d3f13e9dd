// The post lifecycle beyond the specification: a post keeps what it was made from (`input`: template, data,
// content, channels, media, overrides, fit), so an edit changes only what it names and a draft can be scheduled
// later; a draft keeps the rule problems of its last save (`problems`), shown rather than refused. Expand only:
// nullable columns the previous release ignores. A target keeps its first comment (`first_comment`): published as
// the part after the post's last, so it has the parts' status, resume and never-twice rules.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "post_lifecycle",
  up: () => [
    "ALTER TABLE posts ADD COLUMN input TEXT",
    "ALTER TABLE posts ADD COLUMN problems TEXT",
    "ALTER TABLE post_targets ADD COLUMN first_comment TEXT",
    // When svc deleted the target's post from its network (POST /v1/posts/{id}/delete_published); null before.
    "ALTER TABLE post_targets ADD COLUMN deleted_at BIGINT",
  ],
} satisfies Migration;
