// Recording a batch's outcomes on Postgres, as one statement: the targets (only those whose lease is still ours),
// their attempt rows, their channel locks, and reading back their posts with every target of those posts for
// deriving the posts' status, and the webhook endpoints the outcomes' events go to (for the outbox: see
// webhooks/known-endpoints.ts): six round trips as separate statements (complete.ts runs them one by one on
// SQLite, where a statement costs no round trip).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { columns, raw } from "../../db/raw.ts";
import {
  POST_COLUMNS,
  POST_TARGET_COLUMNS,
  type PostsTable,
  type PostTargetsTable,
} from "../../db/tables/posts.ts";
import { endpointScope, endpointsOfScopesSql, rememberEndpoints } from "../webhooks/known-endpoints.ts";
import type { Finished } from "./claimed.ts";

/** A post's columns as one JSON object (all of them text, integer or bigint: JSON gives the values pg would). */
const POST_JSON = `json_build_object(${POST_COLUMNS.map((c) => `'${c}', p.${c}`).join(", ")})`;
const ROW = "(?::text, ?::text, ?::bigint, ?::text, ?::bigint, ?::text, ?::text, ?::text, ?::text)";
const texts = new Map<number, string>();

function text(rows: number): string {
  let t = texts.get(rows);
  if (t === undefined) {
    t = `WITH v (id, status, next_attempt_at, permalink, published_at, error_code, error_message, attempt_id, outcome)
      AS (VALUES ${Array.from({ length: rows }, () => ROW).join(", ")}),
    done AS (
      UPDATE post_targets t SET status = v.status, next_attempt_at = v.next_attempt_at, permalink = v.permalink,
        published_at = v.published_at, error_code = v.error_code, error_message = v.error_message,
        leased_until = NULL, lease_owner = NULL, updated_at = ?
      FROM v WHERE t.id = v.id AND t.status = 'publishing' AND t.lease_owner = ?
      RETURNING ${columns(POST_TARGET_COLUMNS, "t")}
    ), finished AS (
      UPDATE post_attempts a SET finished_at = ?, outcome = v.outcome, error_code = v.error_code,
        error_message = v.error_message
      FROM v WHERE a.id = v.attempt_id
    ), released AS (
      DELETE FROM channel_locks WHERE target_id IN (SELECT id FROM v)
    ), targets AS (
      SELECT ${columns(POST_TARGET_COLUMNS)}, true AS ours FROM done
      UNION ALL
      SELECT ${columns(POST_TARGET_COLUMNS, "t")}, false AS ours FROM post_targets t
      WHERE t.post_id IN (SELECT post_id FROM done) AND t.id NOT IN (SELECT id FROM done)
    ), head AS (
      SELECT min(id) AS id FROM targets
    )
    SELECT x.*,
      CASE WHEN x.id = (SELECT id FROM head) THEN
        (SELECT json_agg(${POST_JSON}) FROM posts p WHERE p.id IN (SELECT post_id FROM done))::text END AS loaded_posts,
      CASE WHEN x.id = (SELECT id FROM head) THEN ${endpointsOfScopesSql("done")} END AS known_endpoints
    FROM targets x ORDER BY x.id`;
    texts.set(rows, t);
  }
  return t;
}

export interface CompletedPg {
  /** The targets whose outcome was recorded (the lease was still ours). */
  ours: string[];
  /** Their posts, and every target of those posts as it is now: what deriving the posts' status reads. */
  posts: PostsTable[];
  targets: PostTargetsTable[];
}

export async function completePg(
  tx: Tx,
  app: App,
  finished: Finished[],
  after: Map<string, PostTargetsTable>,
  now: number,
): Promise<CompletedPg> {
  const params: unknown[] = [];
  for (const { claimed, decision } of finished) {
    const t = after.get(claimed.target.id)!;
    params.push(
      t.id,
      t.status,
      t.next_attempt_at,
      t.permalink,
      t.published_at,
      t.error_code,
      t.error_message,
      claimed.attemptId,
      decision.attemptOutcome,
    );
  }
  params.push(now, app.instanceId, now);
  const rows = await raw<Record<string, unknown>>(tx, "postgres", text(finished.length), params);
  const out: CompletedPg = { ours: [], posts: [], targets: [] };
  // The posts and the endpoints come once, on the first row (none come back when no outcome was ours): each
  // post's columns on every one of its targets' rows were a third of what the client decoded.
  const posts = new Map<string, PostsTable>();
  for (const p of JSON.parse((rows[0]?.loaded_posts as string | null) ?? "[]") as PostsTable[])
    posts.set(p.id, p);
  for (const r of rows) {
    const target = {} as Record<string, unknown>;
    for (const c of POST_TARGET_COLUMNS) target[c] = r[c];
    out.targets.push(target as unknown as PostTargetsTable);
    if (r.ours) out.ours.push(target.id as string);
    // In the order their targets come, as before.
    const post = posts.get(target.post_id as string);
    if (post) {
      out.posts.push(post);
      posts.delete(post.id);
    }
  }
  if (rows.length)
    rememberEndpoints(
      tx,
      out.ours.map((id) => {
        const t = after.get(id)!;
        return endpointScope(t.org_id, t.livemode);
      }),
      rows[0]!.known_endpoints as string | null,
    );
  return out;
}
