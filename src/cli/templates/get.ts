// svc templates get <key> --brand B: a template found by key (GET /v1/templates?brand=&key=), then its latest
// version with the body.
import type { ClientCommand } from "../client/command.ts";
import { printObject } from "../client/printer.ts";
import { UsageError } from "../output.ts";
import { TEMPLATE_FIELDS } from "./list.ts";

export const templatesGet: ClientCommand = {
  name: "templates get",
  summary: "Show a template (by key, or ID) with its body",
  usage: "svc templates get <key> --brand BRAND [--version N]",
  help: "Example:\n  svc templates get release --brand acme-shop",
  options: { brand: { type: "string" }, version: { type: "string" } },
  args: { min: 1, max: 1, names: ["<key>"] },
  fields: TEMPLATE_FIELDS,
  async run(ctx) {
    const [key] = ctx.args as [string];
    let id = key;
    if (!/^tmpl_/.test(key)) {
      const brand = ctx.flags.brand;
      if (!brand) throw new UsageError("--brand is required to find a template by key");
      const found = await ctx.api("GET", "/v1/templates", { query: { brand, key } });
      const t = found.body?.data?.[0];
      if (!t) throw new Error(`no template with key ${JSON.stringify(key)} in brand ${brand}`);
      id = t.id;
    }
    if (ctx.flags.version !== undefined && !/^\d+$/.test(ctx.flags.version))
      throw new UsageError("--version must be a whole number");
    const t = (await ctx.api("GET", `/v1/templates/${id}`, { query: { version: ctx.flags.version } })).body;
    const v = t.latest ?? {};
    await printObject(
      ctx,
      t,
      [
        ["Key", t.key],
        ["Name", t.name],
        ["ID", t.id],
        ["Brand", t.brand],
        ["Version", String(v.version ?? t.latest_version)],
        ["Approval", t.approval],
        ["Variables", v.variables ? JSON.stringify(v.variables) : ""],
        ...Object.entries(v.overrides ?? {}).map(
          ([p, text]) => [`Override ${p}`, String(text)] as [string, string],
        ),
      ],
      v.body,
    );
    return 0;
  },
};
