// API key lineage. A rolled key is the same credential as the key it replaced: `lineage_id` names the first key of
// the roll chain, so rules that compare the acting key (a key cannot review a post it created, the rate limit, the
// Idempotency-Key store) compare lineages. `rolled_to` names a key's successor, so a key has at most one live
// successor at a time (a second roll during the overlap is refused): the roll sets it with a conditional update
// on the key's own row, which concurrent rolls cannot both pass.
// Both columns are nullable: the previous release ignores them, and a key it rolls during the upgrade reads as
// its own lineage (COALESCE(lineage_id, id)). Existing chains are filled in here.
import type { Migration } from "../src/db/migration.ts";

export default {
  name: "api_key_lineage",
  up: () => [
    `ALTER TABLE api_keys ADD COLUMN lineage_id TEXT`,
    `ALTER TABLE api_keys ADD COLUMN rolled_to TEXT`,
    `WITH RECURSIVE chain(id, root) AS (
       SELECT id, id FROM api_keys WHERE rolled_from IS NULL
       UNION ALL
       SELECT k.id, c.root FROM api_keys k JOIN chain c ON k.rolled_from = c.id
     )
     UPDATE api_keys SET lineage_id = (SELECT root FROM chain WHERE chain.id = api_keys.id)`,
    `UPDATE api_keys SET rolled_to = (SELECT MAX(n.id) FROM api_keys n WHERE n.rolled_from = api_keys.id)`,
  ],
} satisfies Migration;
