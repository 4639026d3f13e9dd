// svc templates list [--brand]: templates without their bodies.
import type { ClientCommand } from "../client/command.ts";
import { listItems } from "../client/pages.ts";
import { printList, when } from "../client/printer.ts";

export const TEMPLATE_FIELDS = [
  "id",
  "object",
  "brand",
  "key",
  "name",
  "approval",
  "latest_version",
  "latest",
  "created_at",
  "updated_at",
] as const;

export const templatesList: ClientCommand = {
  name: "templates list",
  summary: "List templates",
  usage: "svc templates list [--brand BRAND]",
  help: "Example:\n  svc templates list --brand acme-shop",
  options: { brand: { type: "string" } },
  fields: TEMPLATE_FIELDS,
  async run(ctx) {
    const rows = await listItems(ctx, "/v1/templates", { brand: ctx.flags.brand });
    await printList(ctx, rows, [
      { header: "KEY", value: (r) => r.key },
      { header: "NAME", value: (r) => r.name, max: 40 },
      { header: "VERSION", value: (r) => String(r.latest_version ?? r.latest?.version ?? "") },
      { header: "BRAND", value: (r) => r.brand },
      { header: "UPDATED", value: (r) => when(ctx, r.updated_at) },
      { header: "ID", value: (r) => r.id },
    ]);
    return 0;
  },
};
