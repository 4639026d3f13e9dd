// The second floor of bench/api.ts: `POST /v1/posts` doing only what the specification requires of any
// implementation, in the leanest code. It reads the key by its hash, the brand by slug and its active channels;
// then writes the post, a target per channel, the `post.created` event, the audit row, the stored
// Idempotency-Key answer and the request-log row, and answers 201 with the post once they are committed. Posts
// whose requests arrive in the same turn of the event loop share one transaction (as svc's group commit does),
// and the log is checkpointed on svc's checkpointer thread (src/db/checkpointer.ts). It checks no network rule, renders nothing, and has no rate limit,
// savepoints or metrics: the distance between it and svc is what svc does beyond the required rows.
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { Elysia } from "elysia";
import { Checkpointer } from "../src/db/checkpointer.ts";
import { newId } from "../src/lib/ids.ts";

const path = join(process.env.SVC_DATA_DIR!, "svc.db");
const db = new Database(path);
const checkpointer = new Checkpointer(path, db);
// The same settings as svc's connection (src/db/sqlite.ts).
db.run("PRAGMA busy_timeout = 5000");
db.run("PRAGMA journal_mode = WAL");
db.run("PRAGMA synchronous = NORMAL");
db.run("PRAGMA foreign_keys = ON");
db.run("PRAGMA temp_store = MEMORY");

const keyByHash = db.query<
  { id: string; org_id: string; livemode: number; brand_id: string | null },
  [string, number]
>(
  "SELECT id, org_id, livemode, brand_id FROM api_keys WHERE hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
);
const brandBySlug = db.query<{ id: string }, [string, string]>(
  "SELECT id FROM brands WHERE org_id = ? AND slug = ?",
);
const activeChannels = db.query<
  { id: string; provider: string; display_name: string },
  [string, number, string]
>(
  "SELECT id, provider, display_name FROM channels WHERE org_id = ? AND livemode = ? AND brand_id = ? AND status = 'active' ORDER BY id",
);
const insertIdempotency = db.query(
  "INSERT INTO idempotency_keys (credential_id, key, fingerprint, state, response_status, response_body, created_at) VALUES (?, ?, ?, 'done', 201, ?, ?)",
);
const insertPost = db.query(
  "INSERT INTO posts (id, org_id, brand_id, livemode, status, content, publish_at, publish_by, metadata, media, created_by_key, search_text, created_at, updated_at) VALUES (?, ?, ?, ?, 'scheduled', ?, ?, ?, ?, '[]', ?, ?, ?, ?)",
);
const insertTarget = db.query(
  "INSERT INTO post_targets (id, org_id, livemode, post_id, channel_id, provider, channel_name, parts, status, next_attempt_at, publish_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)",
);
const insertEvent = db.query(
  "INSERT INTO events (id, org_id, livemode, type, request_id, data, created_at) VALUES (?, ?, ?, 'post.created', ?, ?, ?)",
);
const insertAudit = db.query(
  "INSERT INTO audit_events (id, org_id, livemode, action, target, api_key_id, outcome, request_id, created_at) VALUES (?, ?, ?, 'post.create', ?, ?, 'success', ?, ?)",
);
const insertRequest = db.query(
  "INSERT INTO request_log (id, org_id, livemode, method, path, status, duration_ms, api_key_id, created_at) VALUES (?, ?, ?, 'POST', '/v1/posts', 201, ?, ?, ?)",
);

interface Body {
  brand: string;
  content: { body: string };
  publish_at: string;
  metadata?: Record<string, string>;
}

type Key = { id: string; org_id: string; livemode: number };

function write(key: Key, brandId: string, idem: string, raw: string, body: Body): string {
  const t0 = Date.now();
  const requestId = newId("req", t0);
  const postId = newId("post", t0);
  const publishAt = Date.parse(body.publish_at);
  const publishBy = publishAt + 86_400_000;
  const iso = new Date(t0).toISOString();
  const targets = activeChannels.all(key.org_id, key.livemode, brandId).map((c) => ({
    id: newId("ptgt", t0),
    object: "post_target",
    post: postId,
    channel: c.id,
    channel_name: c.display_name,
    provider: c.provider,
    livemode: key.livemode === 1,
    parts: [body.content.body],
    status: "queued",
    attempts: 0,
    next_attempt_at: body.publish_at,
    publish_by: new Date(publishBy).toISOString(),
    permalink: null,
    error: null,
    published_at: null,
    engagement: null,
  }));
  const post = JSON.stringify({
    id: postId,
    object: "post",
    brand: brandId,
    livemode: key.livemode === 1,
    status: "scheduled",
    template: null,
    template_version: null,
    data: null,
    content: body.content,
    publish_at: body.publish_at,
    publish_by: new Date(publishBy).toISOString(),
    slot: false,
    metadata: body.metadata ?? {},
    approval: { required: false, reviewed_by: null, reviewed_by_key: null, reviewed_at: null, note: null },
    media: [],
    targets,
    created_at: iso,
    updated_at: iso,
  });
  const fingerprint = createHash("sha256").update(raw).digest("hex");
  insertIdempotency.run(key.id, idem, fingerprint, post, t0);
  insertPost.run(
    postId,
    key.org_id,
    brandId,
    key.livemode,
    JSON.stringify(body.content),
    publishAt,
    publishBy,
    JSON.stringify(body.metadata ?? {}),
    key.id,
    body.content.body.toLowerCase(),
    t0,
    t0,
  );
  for (const t of targets)
    insertTarget.run(
      t.id,
      key.org_id,
      key.livemode,
      postId,
      t.channel,
      t.provider,
      t.channel_name,
      JSON.stringify(t.parts),
      publishAt,
      publishBy,
      t0,
      t0,
    );
  insertEvent.run(newId("evt", t0), key.org_id, key.livemode, requestId, `{"object":${post}}`, t0);
  insertAudit.run(newId("audit", t0), key.org_id, key.livemode, postId, key.id, requestId, t0);
  insertRequest.run(requestId, key.org_id, key.livemode, Date.now() - t0, key.id, t0);
  return post;
}

interface Pending {
  args: Parameters<typeof write>;
  resolve: (post: string) => void;
  reject: (e: unknown) => void;
}
let batch: Pending[] = [];

/** The requests of one event-loop turn, in one transaction; each is answered after the COMMIT. */
function flush(): void {
  const b = batch;
  batch = [];
  const posts: string[] = [];
  try {
    db.run("BEGIN IMMEDIATE");
    for (const p of b) posts.push(write(...p.args));
    db.run("COMMIT");
    checkpointer.committed();
  } catch (e) {
    if (db.inTransaction) db.run("ROLLBACK");
    for (const p of b) p.reject(e);
    return;
  }
  for (const [i, p] of b.entries()) p.resolve(posts[i]!);
}

function enqueue(...args: Parameters<typeof write>): Promise<string> {
  return new Promise((resolve, reject) => {
    batch.push({ args, resolve, reject });
    if (batch.length === 1) setImmediate(flush);
  });
}

export function requiredWritesServer(port: number) {
  const app = new Elysia().post("/v1/posts", async ({ request }) => {
    const secret = request.headers.get("authorization")!.slice(7);
    const key = keyByHash.get(createHash("sha256").update(secret).digest("hex"), Date.now());
    if (!key) return new Response('{"code":"api_key_invalid"}', { status: 401 });
    const raw = await request.text();
    const body = JSON.parse(raw) as Body;
    const brand = brandBySlug.get(key.org_id, body.brand);
    if (!brand) return new Response('{"code":"resource_missing"}', { status: 404 });
    const post = await enqueue(key, brand.id, request.headers.get("idempotency-key")!, raw, body);
    return new Response(post, { status: 201, headers: { "content-type": "application/json" } });
  });
  Bun.serve({ hostname: "127.0.0.1", port, fetch: (r) => app.handle(r) });
}
