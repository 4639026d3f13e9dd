// The Post's fields (reference §4) and how a post reads in a table.
import type { Ctx } from "../client/command.ts";
import { type Column, when } from "../client/printer.ts";

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

export function postColumns(ctx: Ctx): Column<Post>[] {
  return [
    { header: "STATUS", value: (p) => p.status, style: statusStyle(ctx) },
    { header: "WHEN", value: (p) => when(ctx, p.publish_at ?? p.created_at) },
    { header: "TEXT", value: postText, max: 50 },
    {
      header: "CHANNELS",
      value: (p) => [...new Set((p.targets ?? []).map((t: { provider: string }) => t.provider))].join(","),
    },
    { header: "ID", value: (p) => p.id },
  ];
}
