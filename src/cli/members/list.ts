// svc members list (user tokens only: /v1/members refuses API keys)
import type { ClientCommand } from "../client/command.ts";
import { printList, when } from "../client/printer.ts";
import { MEMBER_FIELDS, type Member } from "./fields.ts";

export const membersList: ClientCommand = {
  name: "members list",
  summary: "List the org's members",
  usage: "svc members list",
  help: "Example:\n  svc members list --json email,role",
  fields: MEMBER_FIELDS,
  async run(ctx) {
    const rows = (await ctx.api("GET", "/v1/members")).body.data as Member[];
    await printList(ctx, rows, [
      { header: "EMAIL", value: (m) => m.email },
      { header: "NAME", value: (m) => m.name, max: 30 },
      { header: "ROLE", value: (m) => m.role },
      { header: "2FA", value: (m) => (m.mfa ? "on" : "off") },
      { header: "JOINED", value: (m) => when(ctx, m.joined_at) },
      { header: "ID", value: (m) => m.id },
    ]);
    return 0;
  },
};
