// svc org view (user tokens only: /v1/org refuses API keys)
import type { ClientCommand, Ctx } from "../client/command.ts";
import { printObject } from "../client/printer.ts";

export const ORG_FIELDS = [
  "id",
  "object",
  "name",
  "require_mfa",
  "require_sso",
  "status",
  "status_note",
  "limits",
  "created_at",
] as const;

// biome-ignore lint/suspicious/noExplicitAny: the API's Org JSON
export async function printOrg(ctx: Ctx, o: any) {
  const limits = o.limits
    ? Object.entries(o.limits as Record<string, number | null>)
        .map(([k, v]) => `${k} ${v ?? "unlimited"}`)
        .join(", ")
    : "";
  await printObject(ctx, o, [
    ["Name", o.name],
    ["ID", o.id],
    ["Status", o.status],
    ["Two-factor", o.require_mfa ? "required" : "optional"],
    ["Single sign-on", o.require_sso ? "required" : "optional"],
    ["Limits", limits],
    ["Created", o.created_at],
  ]);
}

export const orgView: ClientCommand = {
  name: "org view",
  summary: "Show the org",
  usage: "svc org view",
  help: "Example:\n  svc org view --org Acme",
  fields: ORG_FIELDS,
  async run(ctx) {
    await printOrg(ctx, (await ctx.api("GET", "/v1/org")).body);
    return 0;
  },
};
