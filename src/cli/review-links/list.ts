// svc review-links list [--brand BRAND]: the client review links of the credential's mode (never their addresses).
import type { ClientCommand } from "../client/command.ts";
import { brandsById } from "../client/names.ts";
import { listItems } from "../client/pages.ts";
import { printList, wantsJson } from "../client/printer.ts";
import { REVIEW_LINK_FIELDS } from "./fields.ts";

export const reviewLinksList: ClientCommand = {
  name: "review-links list",
  summary: "List client review links",
  usage: "svc review-links list [--brand BRAND]",
  help: "Examples:\n  svc review-links list --brand acme-shop\n  svc review-links list --json id,name,status",
  options: { brand: { type: "string" } },
  fields: REVIEW_LINK_FIELDS.filter((f) => f !== "url"),
  async run(ctx) {
    const rows = await listItems(ctx, "/v1/review_links", { brand: ctx.flags.brand });
    const brands = wantsJson(ctx) ? new Map() : await brandsById(ctx);
    await printList(ctx, rows, [
      { header: "ID", value: (r) => r.id },
      { header: "NAME", value: (r) => r.name, max: 40 },
      { header: "BRAND", value: (r) => brands.get(r.brand)?.slug ?? r.brand },
      {
        header: "STATUS",
        value: (r) => r.status,
        style: (s) => (s === "active" ? ctx.c.green(s) : ctx.c.yellow(s)),
      },
      { header: "EXPIRES", value: (r) => r.expires_at },
    ]);
    return 0;
  },
};
