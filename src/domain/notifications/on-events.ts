// The hook that turns live-mode events into notifications, inside the event's own transaction (registered in
// src/boot.ts). Org notifications are raised in live mode only (interface.md); events of other types cost one
// set look-up.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { PendingWrites } from "../../db/raw.ts";
import { run } from "../../db/sql/statement.ts";
import { once } from "../../lib/once.ts";
import type { EventHook } from "../events/hooks.ts";
import type { RecordedEvent } from "../events/types.ts";
import type { DescribedNotification, KnownPreferences, NewNotification } from "./raise.ts";
import type { NotificationType } from "./types.ts";

// What raising needs loads with the first event that notifies someone (most processes meet none for a while).
const loadRaising = once(async () => ({
  ...(await import("../../db/sql/notification-recipients.ts")),
  ...(await import("./raise.ts")),
  ...(await import("./recipients.ts")),
}));

const NOTIFYING = new Set([
  "approval.requested",
  "newsletter.approval_requested",
  "post_target.needs_attention",
  "post_target.failed",
  "channel.needs_reauth",
]);

const DAY_MS = 86400_000;

type Obj = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

export const notifyOnEvents: EventHook = async (
  tx: Tx,
  app: App,
  events: RecordedEvent[],
  pending?: PendingWrites,
) => {
  let relevant: RecordedEvent[] | null = null;
  for (const e of events) {
    if (!e.livemode || !NOTIFYING.has(e.type)) continue;
    relevant ??= [];
    relevant.push(e);
  }
  if (!relevant) return;
  const described: DescribedNotification[] = [];
  for (const e of relevant) {
    const o = (e.data.object ?? {}) as Obj;
    const id = str(o.id);
    switch (e.type) {
      case "approval.requested": {
        described.push({
          item: {
            orgId: e.org_id,
            type: "post.approval_requested",
            objectId: id,
            subject: "A post waits for your approval",
            body: `A live post (${id}) waits for approval before it takes its slot.`,
            link: `/approvals`,
          },
          authorPost: id,
          authorIn: false,
          admins: true,
          exceptUser: null,
          since: null,
        });
        break;
      }
      case "newsletter.approval_requested": {
        described.push({
          item: {
            orgId: e.org_id,
            type: "newsletter.approval_requested",
            objectId: id,
            subject: `A newsletter waits for your approval${str(o.subject) ? `: ${str(o.subject)}` : ""}`,
            body: `A newsletter issue (${id}) waits for approval before it is sent.`,
            link: `/newsletters/${id}`,
          },
          authorPost: null,
          authorIn: false,
          admins: true,
          exceptUser: str(o.created_by_user) ?? str(o.requested_by),
          since: null,
        });
        break;
      }
      case "post_target.needs_attention": {
        const post = str(o.post);
        described.push({
          item: {
            orgId: e.org_id,
            type: "post.needs_attention",
            objectId: id,
            subject: `A post needs attention on ${str(o.channel_name) ?? str(o.provider) ?? "a channel"}`,
            body: `The network may or may not have published post ${post}: check the channel, then mark it published or retry it.`,
            link: `/posts/${post}/targets/${id}`,
          },
          authorPost: post,
          authorIn: true,
          admins: true,
          exceptUser: null,
          since: null,
        });
        break;
      }
      case "post_target.failed": {
        const post = str(o.post);
        const err = (o.error ?? null) as { message?: string } | null;
        described.push({
          item: {
            orgId: e.org_id,
            type: "post.target_failed",
            objectId: id,
            subject: `Your post failed on ${str(o.channel_name) ?? str(o.provider) ?? "a channel"}`,
            body: `Post ${post} could not be published there${err?.message ? `: ${err.message}` : "."}`,
            link: `/posts/${post}/targets/${id}`,
          },
          authorPost: post,
          authorIn: true,
          admins: false,
          exceptUser: null,
          since: null,
        });
        break;
      }
      case "channel.needs_reauth": {
        // At most daily per channel: a channel that keeps failing its renewal is not news every time (one per
        // channel in a batch; against earlier ones, `since`).
        if (described.some((p) => p.item.type === "channel.needs_reauth" && p.item.objectId === id)) break;
        const name = str(o.display_name) ?? str(o.provider) ?? "A channel";
        described.push({
          item: {
            orgId: e.org_id,
            type: "channel.needs_reauth",
            objectId: id,
            subject: `${name} must be connected again`,
            body: `The network refused svc's access to ${name} (${str(o.provider) ?? "channel"}); posts to it wait until it is connected again.`,
            link: `/connect`,
          },
          authorPost: null,
          authorIn: false,
          admins: true,
          exceptUser: null,
          since: id ? e.created_at - DAY_MS : null,
        });
        break;
      }
    }
  }
  if (described.length === 0) return;
  const raising = await loadRaising();
  // Postgres: every look-up and the insert in one round trip, which also carries the events' own insert when it
  // is still pending; a dialect without that statement (SQLite, where a statement is a call, not a round trip)
  // looks up one thing at a time.
  if (raising.raiseForEvents[app.dialect] !== null) await raising.raiseAtOnce(tx, app, described, pending);
  else await raiseStepByStep(tx, app, described);
};

/** The recipients looked up one statement at a time (once per org and type, and per post, in the batch). */
async function raiseStepByStep(tx: Tx, app: App, described: DescribedNotification[]): Promise<void> {
  const { adminsWithPreference, postAuthor, recentNotificationAbout, raiseNotifications, except } =
    await loadRaising();
  // The admins come with their preference for the type, so raising reads no preference again.
  const known: KnownPreferences = new Map();
  const admins = new Map<string, string[]>();
  const adminsOf = async (orgId: string, type: NotificationType) => {
    const key = `${orgId}|${type}`;
    let ids = admins.get(key);
    if (!ids) {
      const rows = await run(tx, app.dialect, adminsWithPreference, [type, orgId]);
      for (const r of rows)
        known.set(
          `${r.user_id}|${orgId}|${type}`,
          r.email === null ? null : { email: r.email, delivery: r.delivery },
        );
      ids = rows.map((r) => r.user_id);
      admins.set(key, ids);
    }
    return ids;
  };
  const authors = new Map<string, string | null>();
  const authorOf = async (postId: string | null): Promise<string | null> => {
    if (!postId) return null;
    if (!authors.has(postId)) {
      const [row] = await run(tx, app.dialect, postAuthor, [postId]);
      authors.set(postId, row?.created_by_user ?? null);
    }
    return authors.get(postId) ?? null;
  };
  const items: NewNotification[] = [];
  for (const p of described) {
    const { orgId, type, objectId } = p.item;
    if (p.since !== null && objectId) {
      const [recent] = await run(tx, app.dialect, recentNotificationAbout, [objectId, type, p.since]);
      if (recent) continue;
    }
    const author = await authorOf(p.authorPost);
    let others = p.admins ? except(await adminsOf(orgId, type), p.exceptUser) : [];
    if (!p.authorIn) others = except(others, author);
    items.push({ ...p.item, recipients: p.authorIn && author ? [author, ...others] : others });
  }
  await raiseNotifications(tx, app, items, known);
}
