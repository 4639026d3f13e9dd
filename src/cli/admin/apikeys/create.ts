import { createApiKey } from "../../../domain/identity/api-keys/service.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

export const apikeysCreate: AdminCommand = {
  name: "apikeys create",
  usage:
    "svc admin apikeys create [--org ORG] --name NAME [--scopes a,b] [--brand BRAND] [--live] [--expires RFC3339]   (prints only the key)",
  async run(args, io) {
    const f = flags(
      args,
      {
        org: { type: "string" },
        name: { type: "string" },
        scopes: { type: "string" },
        brand: { type: "string" },
        live: { type: "boolean" },
        expires: { type: "string" },
      },
      ["name"],
    );
    await withAdmin(io, async (ctx) => {
      const actor = await ctx.actorIn(f.org, "apikeys create", Boolean(f.live));
      const k = await createApiKey(ctx.app, actor, {
        name: f.name,
        ...(f.scopes
          ? {
              scopes: f.scopes
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean),
            }
          : {}),
        ...(f.brand ? { brand: f.brand } : {}),
        ...(f.expires ? { expires_at: f.expires } : {}),
      });
      io.out(k.secret!);
    });
  },
};
