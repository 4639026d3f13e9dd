// svc review-links create --brand BRAND --name NAME [--expires-at TIME]: makes a client review link and prints
// its address (shown this once; only its hash is kept).
import type { ClientCommand } from "../client/command.ts";
import { printJson, wantsJson } from "../client/printer.ts";
import { UsageError } from "../output.ts";
import { REVIEW_LINK_FIELDS } from "./fields.ts";

export const reviewLinksCreate: ClientCommand = {
  name: "review-links create",
  summary: "Make a client review link for a brand's posts waiting for approval; prints it once",
  usage: "svc review-links create --brand BRAND --name NAME [--expires-at TIME]",
  help: `Flags:
  --brand BRAND       the brand's slug or ID
  --name NAME         who the link is for (shown in lists and on the page)
  --expires-at TIME   RFC 3339, at most 30 days ahead (default: 30 days)

Example:
  svc review-links create --brand acme-shop --name "Acme marketing"`,
  options: { brand: { type: "string" }, name: { type: "string" }, "expires-at": { type: "string" } },
  fields: REVIEW_LINK_FIELDS,
  async run(ctx) {
    const { brand, name } = ctx.flags;
    if (!brand) throw new UsageError("--brand is required");
    if (!name) throw new UsageError("--name is required");
    const body: Record<string, unknown> = { brand, name };
    if (ctx.flags["expires-at"]) body.expires_at = ctx.flags["expires-at"];
    const link = (await ctx.api("POST", "/v1/review_links", { body })).body;
    if (wantsJson(ctx)) await printJson(ctx, link);
    else {
      ctx.io.out(link.url);
      ctx.io.err(
        `${ctx.c.green("✓")} Review link ${link.id} for ${link.name}; it works until ${link.expires_at} and is not shown again`,
      );
    }
    return 0;
  },
};
