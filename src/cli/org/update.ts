// svc org update --name NAME (user tokens only; renaming needs the owner role)
import type { ClientCommand } from "../client/command.ts";
import { UsageError } from "../output.ts";
import { ORG_FIELDS, printOrg } from "./view.ts";

export const orgUpdate: ClientCommand = {
  name: "org update",
  summary: "Rename the org",
  usage: "svc org update --name NAME",
  help: 'Example:\n  svc org update --name "Acme Inc"',
  options: { name: { type: "string" } },
  fields: ORG_FIELDS,
  async run(ctx) {
    if (ctx.flags.name === undefined) throw new UsageError("--name is required");
    await printOrg(ctx, (await ctx.api("POST", "/v1/org", { body: { name: ctx.flags.name } })).body);
    return 0;
  },
};
