// svc posts list: newest first; columns STATUS, WHEN, TEXT, CHANNELS, ID.
import type { ClientCommand } from "../client/command.ts";
import { listItems } from "../client/pages.ts";
import { printList } from "../client/printer.ts";
import { UsageError } from "../output.ts";
import { POST_FIELDS, postColumns } from "./fields.ts";

export const postsList: ClientCommand = {
  name: "posts list",
  summary: "List posts, newest first",
  usage: "svc posts list [--brand BRAND] [--status STATUS] [--search TEXT] [--limit N]",
  help: `Flags:
  --status STATUS   scheduled, pending_approval, publishing, published, failed, canceled, …
  --search TEXT     posts whose text (on any channel) contains TEXT
  --limit N         at most N posts (default 20)

Examples:
  svc posts list --status scheduled
  svc posts list --search launch --json id,status,publish_at`,
  options: {
    brand: { type: "string" },
    status: { type: "string" },
    search: { type: "string" },
    limit: { type: "string", short: "L" },
  },
  fields: POST_FIELDS,
  async run(ctx) {
    const limit = ctx.flags.limit === undefined ? 20 : Number(ctx.flags.limit);
    if (!Number.isInteger(limit) || limit < 1)
      throw new UsageError("--limit must be a whole number of 1 or more");
    const rows = await listItems(
      ctx,
      "/v1/posts",
      { brand: ctx.flags.brand, status: ctx.flags.status, q: ctx.flags.search },
      limit,
    );
    await printList(ctx, rows, postColumns(ctx));
    return 0;
  },
};
