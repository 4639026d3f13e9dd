// An org's use of the install in one UTC calendar month (reference §4 Usage): what the limits count and what an
// operator bills by; owners and admins see it against their limits (GET /v1/org). Brands, live channels and
// members are counted as of now; posts and published targets are those of the month.
import type { App } from "../../app/context.ts";
import { badRequest } from "../../lib/errors.ts";
import { idAtTime } from "../../lib/ids.ts";

export function monthBounds(month: string | undefined, now: number): { start: number; end: number } {
  const d = new Date(now);
  let y = d.getUTCFullYear();
  let m = d.getUTCMonth();
  if (month !== undefined && month !== "") {
    const mm = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
    if (!mm) throw badRequest("month_invalid", "month is YYYY-MM.", "month");
    y = Number(mm[1]);
    m = Number(mm[2]) - 1;
  }
  return { start: Date.UTC(y, m, 1), end: Date.UTC(y, m + 1, 1) };
}

const count = (r: { n: string | number | bigint } | undefined) => Number(r?.n ?? 0);

/** The usage of one org in one month (`month` YYYY-MM, default the current UTC month). */
export async function usageOf(app: App, orgId: string, month?: string) {
  const org = { id: orgId };
  const { start, end } = monthBounds(month, app.clock.now());
  const db = app.db;
  const [brands, channels, members, invitations, posts, published] = await Promise.all([
    db
      .selectFrom("brands")
      .select((e) => e.fn.countAll().as("n"))
      .where("org_id", "=", org.id)
      .executeTakeFirst(),
    db
      .selectFrom("channels")
      .select((e) => e.fn.countAll().as("n"))
      .where("org_id", "=", org.id)
      .where("livemode", "=", 1)
      .executeTakeFirst(),
    db
      .selectFrom("members")
      .select((e) => e.fn.countAll().as("n"))
      .where("org_id", "=", org.id)
      .executeTakeFirst(),
    openInvitations(app, org.id),
    // A post's ID carries its creation time: the month's posts are an ID range of the org's index.
    db
      .selectFrom("posts")
      .select((e) => e.fn.countAll().as("n"))
      .where("org_id", "=", org.id)
      .where("livemode", "=", 1)
      .where("id", ">=", idAtTime("post", start))
      .where("id", "<", idAtTime("post", end))
      .executeTakeFirst(),
    db
      .selectFrom("post_targets")
      .select((e) => e.fn.countAll().as("n"))
      .where("org_id", "=", org.id)
      .where("livemode", "=", 1)
      .where("status", "=", "published")
      .where("published_at", ">=", start)
      .where("published_at", "<", end)
      .executeTakeFirst(),
  ]);
  return {
    object: "usage" as const,
    org: org.id,
    period_start: new Date(start).toISOString(),
    period_end: new Date(end).toISOString(),
    brands: count(brands),
    live_channels: count(channels),
    members: count(members) + invitations,
    live_posts_created: count(posts),
    live_targets_published: count(published),
    media_bytes: await mediaBytes(app, org.id),
  };
}

/** Open invitations count as members: each holds a place (reference §4; the members limit counts them too). */
async function openInvitations(app: App, orgId: string): Promise<number> {
  const r = await app.db
    .selectFrom("invitations")
    .select((e) => e.fn.countAll().as("n"))
    .where("org_id", "=", orgId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", app.clock.now())
    .executeTakeFirst();
  return count(r);
}

/** Bytes of the org's stored media (both modes; in the database or S3 alike). */
async function mediaBytes(app: App, orgId: string): Promise<number> {
  const r = await app.db
    .selectFrom("media")
    .select((e) => e.fn.sum<number>("size").as("n"))
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
