import { changeOrg } from "../../../domain/operator/orgs.ts";
import { updateOrg } from "../../../domain/orgs/service.ts";
import { UsageError } from "../../output.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

/** `brands=5,channels=10,members=3,posts_per_month=1000`; `none` (or an empty value) removes a limit. */
export function parseLimits(text: string): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const item of text.split(",").filter((s) => s.trim())) {
    const [k, val] = item.split("=").map((s) => s.trim());
    if (!k || val === undefined)
      throw new UsageError(`--limits takes name=value pairs, got ${JSON.stringify(item)}`);
    // The domain refuses what is not a whole number 0 or more (limit_invalid); only the text is read here.
    out[k] = val === "" || val === "none" ? null : /^-?\d+(\.\d+)?$/.test(val) ? Number(val) : (val as never);
  }
  return out;
}

export const orgUpdate: AdminCommand = {
  name: "org update",
  usage:
    "svc admin org update --org ORG [--name NAME] [--status active|read_only|suspended] [--status-note TEXT]\n" +
    "      [--limits brands=N,channels=N,members=N,posts_per_month=N] [--external-ref REF] [--require-mfa true|false]",
  async run(args, io) {
    const f = flags(args, {
      org: { type: "string" },
      name: { type: "string" },
      status: { type: "string" },
      "status-note": { type: "string" },
      limits: { type: "string" },
      "external-ref": { type: "string" },
      "require-mfa": { type: "string" },
    });
    const mfa = f["require-mfa"];
    if (mfa !== undefined && mfa !== "true" && mfa !== "false")
      throw new UsageError("--require-mfa takes true or false");
    await withAdmin(io, async (ctx) => {
      const actor = await ctx.actorIn(f.org, "org update");
      const change = {
        ...(f.name !== undefined ? { name: f.name } : {}),
        ...(f.status !== undefined ? { status: f.status } : {}),
        ...(f["status-note"] !== undefined ? { status_note: f["status-note"] || null } : {}),
        ...(f["external-ref"] !== undefined ? { external_ref: f["external-ref"] || null } : {}),
        ...(f.limits !== undefined ? { limits: parseLimits(f.limits) } : {}),
      };
      const o = Object.keys(change).length ? await changeOrg(ctx.app, actor, change) : null;
      if (mfa !== undefined) {
        const m = await updateOrg(ctx.app, actor, { require_mfa: mfa === "true" });
        io.out(`${m.name} (${m.id}): two-factor ${m.require_mfa ? "required" : "optional"}.`);
      }
      if (o) {
        const l = o.limits;
        const show = (n: number | null) => (n === null ? "unlimited" : String(n));
        io.out(
          `${o.name} (${o.id}): ${o.status}${o.status_note ? ` (${o.status_note})` : ""}; limits brands ${show(l.brands)}, ` +
            `channels ${show(l.channels)}, members ${show(l.members)}, posts/month ${show(l.posts_per_month)}` +
            `${o.external_ref ? `; external_ref ${o.external_ref}` : ""}.`,
        );
      }
    });
  },
};
