// The Post's fields (reference §4) and how a post reads in a table.
import type { Ctx } from "../client/command.ts";
import type { BrandInfo } from "../client/names.ts";
import { type Column, when } from "../client/printer.ts";
import { inZone } from "../client/zone.ts";

export const POST_FIELDS = [
  "id",
  "object",
  "brand",
  "livemode",
  "status",
  "template",
  "template_version",
  "data",
  "content",
  "publish_at",
  "publish_by",
  "slot",
  "metadata",
  "approval",
  "media",
  "problems",
  "targets",
  "created_at",
  "updated_at",
] as const;

// biome-ignore lint/suspicious/noExplicitAny: the API's Post JSON
type Post = any;

export const postText = (p: Post): string =>
  p.content?.body ?? p.targets?.[0]?.parts?.[0] ?? (p.template ? `(template ${p.template})` : "");

export function statusStyle(ctx: Ctx) {
  return (s: string) =>
    ["published"].includes(s)
      ? ctx.c.green(s)
      : ["failed", "canceled", "rejected", "partially_published"].includes(s)
        ? ctx.c.red(s)
        : ctx.c.yellow(s);
}

/**
 * When the post is due: in a pipe its publish_at (RFC 3339, empty while it waits for approval to take a slot); on
 * a terminal the brand's wall-clock time and how far off it is. Never the creation time, which says nothing
 * about when the post goes out.
 */
export function due(ctx: Ctx, p: Post, brands: ReadonlyMap<string, BrandInfo>): string {
  if (!p.publish_at) return ctx.stdoutTty ? "after approval (next slot)" : "";
  if (!ctx.stdoutTty) return p.publish_at;
  const tz = brands.get(p.brand)?.timezone;
  return `${tz ? inZone(p.publish_at, tz).replace(/ \S+$/, "") : p.publish_at} (${when(ctx, p.publish_at)})`;
}

/** The channels by name (the target keeps the name the channel had when the post was made). */
export const channelNames = (p: Post): string =>
  [
    ...new Set(
      (p.targets ?? []).map(
        (t: { provider: string; channel_name: string | null }) => t.channel_name ?? t.provider,
      ),
    ),
  ].join(", ");

export function postColumns(ctx: Ctx, brands: ReadonlyMap<string, BrandInfo> = new Map()): Column<Post>[] {
  return [
    { header: "STATUS", value: (p) => p.status, style: statusStyle(ctx) },
    { header: "WHEN", value: (p) => due(ctx, p, brands) },
    { header: "TEXT", value: postText, max: 50 },
    { header: "CHANNELS", value: channelNames, max: 40 },
    { header: "ID", value: (p) => p.id },
  ];
}

/** The PostTarget's fields (what retry and mark-published answer). */
export const TARGET_FIELDS = [
  "id",
  "object",
  "post",
  "channel",
  "channel_name",
  "provider",
  "livemode",
  "parts",
  "status",
  "attempts",
  "next_attempt_at",
  "publish_by",
  "permalink",
  "error",
  "published_at",
  "engagement",
] as const;
