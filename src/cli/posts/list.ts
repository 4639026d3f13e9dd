// svc posts list: newest first; columns STATUS, WHEN (when the post is due), TEXT, CHANNELS (by name), ID.
import type { ClientCommand } from "../client/command.ts";
import { brandsById } from "../client/names.ts";
import { listItems } from "../client/pages.ts";
import { printList, wantsJson } from "../client/printer.ts";
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

WHEN is when the post is due: on a terminal in its brand's time zone with how far off it is, in a pipe the
RFC 3339 time (empty while a post waits for approval to take its slot). CHANNELS names each channel.

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
    // Due times read in each post's brand zone on a terminal.
    const brands = ctx.stdoutTty && !wantsJson(ctx) ? await brandsById(ctx) : new Map();
    await printList(ctx, rows, postColumns(ctx, brands));
    return 0;
  },
};
