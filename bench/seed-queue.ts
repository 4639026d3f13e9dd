// Seeds a database with N due targets spread over C sandbox channels (10 targets per post unless told), for the queue
// benchmarks and the queue's concurrency tests. Rows are written directly in bulk: this is set-up, not what is measured.
import type { App } from "../src/app/context.ts";
import { bootstrap } from "../src/domain/bootstrap/service.ts";
import { newId } from "../src/lib/ids.ts";

export async function seedQueue(
  app: App,
  n: number,
  channels: number,
  dueAt: number,
  /** Targets per post (each on another channel). */
  targetsPerPost = 10,
): Promise<{ orgId: string }> {
  const b = await bootstrap(app, {
    email: `bench-${newId("user")}@example.com`,
    org: "Bench",
    sandbox: false,
  });
  const now = app.clock.now();
  const chans = Array.from({ length: channels }, () => ({
    id: newId("chan"),
    org_id: b.org.id,
    brand_id: b.brand.id,
    livemode: 0 as const,
    provider: "sandbox",
    emulates: "bluesky",
    display_name: "Bench",
    handle: null,
    profile_url: null,
    settings: "{}",
    secrets: null,
    status: "active" as const,
    status_note: null,
    checked_at: null,
    check_error: null,
    rate_limited_until: null,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < chans.length; i += 500)
    await app.db
      .insertInto("channels")
      .values(chans.slice(i, i + 500))
      .execute();
  const perPost = Math.min(targetsPerPost, channels);
  const posts = [];
  const targets = [];
  for (let p = 0; p < Math.ceil(n / perPost); p++) {
    const postId = newId("post");
    posts.push({
      id: postId,
      org_id: b.org.id,
      brand_id: b.brand.id,
      livemode: 0 as const,
      status: "scheduled",
      template_id: null,
      template_key: null,
      template_version: null,
      data: null,
      content: '{"body":"bench"}',
      publish_at: dueAt,
      publish_by: dueAt + 86400_000,
      slot: 0 as const,
      metadata: "{}",
      media: "[]",
      approval_required: 0 as const,
      reviewed_by: null,
      reviewed_by_key: null,
      reviewed_at: null,
      review_note: null,
      created_by_key: null,
      created_by_user: null,
      search_text: "bench",
      created_at: now,
      updated_at: now,
    });
    for (let k = 0; k < perPost && targets.length < n; k++) {
      const ch = chans[(p * perPost + k) % channels]!;
      targets.push({
        id: newId("ptgt"),
        org_id: b.org.id,
        livemode: 0 as const,
        post_id: postId,
        channel_id: ch.id,
        provider: "sandbox",
        channel_name: "Bench",
        parts: '["bench"]',
        status: "queued",
        attempts: 0,
        next_attempt_at: dueAt,
        publish_by: dueAt + 86400_000,
        permalink: null,
        error_code: null,
        error_message: null,
        published_at: null,
        leased_until: null,
        lease_owner: null,
        remote_parts: "[]",
        created_at: now,
        updated_at: now,
      });
    }
  }
  for (let i = 0; i < posts.length; i += 500)
    await app.db
      .insertInto("posts")
      .values(posts.slice(i, i + 500))
      .execute();
  for (let i = 0; i < targets.length; i += 500)
    await app.db
      .insertInto("post_targets")
      .values(targets.slice(i, i + 500))
      .execute();
  return { orgId: b.org.id };
}
