// svc channels list: the channels of the credential's mode (test: sandbox only).
import type { ClientCommand } from "../client/command.ts";
import { brandsById } from "../client/names.ts";
import { listItems } from "../client/pages.ts";
import { printList, wantsJson } from "../client/printer.ts";

export const CHANNEL_FIELDS = [
  "id",
  "object",
  "brand",
  "livemode",
  "provider",
  "emulates",
  "display_name",
  "handle",
  "profile_url",
  "settings",
  "status",
  "status_note",
  "checked_at",
  "check_error",
  "created_at",
] as const;

export const channelsList: ClientCommand = {
  name: "channels list",
  summary: "List channels",
  usage: "svc channels list [--brand BRAND]",
  help: "Examples:\n  svc channels list --brand acme-shop\n  svc channels list --json id,provider,status",
  options: { brand: { type: "string" } },
  fields: CHANNEL_FIELDS,
  async run(ctx) {
    const rows = await listItems(ctx, "/v1/channels", { brand: ctx.flags.brand });
    // The brand by its slug (what --brand takes), not its ID; --json keeps the ID.
    const brands = wantsJson(ctx) ? new Map() : await brandsById(ctx);
    await printList(ctx, rows, [
      { header: "ID", value: (r) => r.id },
      { header: "PROVIDER", value: (r) => (r.emulates ? `${r.provider} (${r.emulates})` : r.provider) },
      { header: "NAME", value: (r) => r.display_name ?? r.handle, max: 40 },
      { header: "BRAND", value: (r) => brands.get(r.brand)?.slug ?? r.brand },
      {
        header: "STATUS",
        value: (r) => r.status,
        style: (s) => (s === "active" ? ctx.c.green(s) : ctx.c.yellow(s)),
      },
    ]);
    return 0;
  },
};
