import { addInstallApp } from "../../../domain/apps/install.ts";
import { UsageError } from "../../output.ts";
import { type AdminCommand, flags } from "../command.ts";
import { withAdmin } from "../context.ts";

// The client secret is read from stdin so it never appears in the shell history or the process list.
export const appsAdd: AdminCommand = {
  name: "apps add",
  usage:
    "svc admin apps add --provider PROVIDER --name NAME --client-id CLIENT_ID   (client secret on stdin; prints the app ID and the redirect URI)",
  async run(args, io) {
    const f = flags(
      args,
      { provider: { type: "string" }, name: { type: "string" }, "client-id": { type: "string" } },
      ["provider", "name", "client-id"],
    );
    const secret = ((await io.stdin()).split(/\r?\n/)[0] ?? "").trim();
    if (!secret) throw new UsageError("the client secret must be given on stdin");
    await withAdmin(io, async (ctx) => {
      const a = await addInstallApp(ctx.app, "apps add", {
        provider: f.provider,
        name: f.name,
        client_id: f["client-id"],
        client_secret: secret,
      });
      io.out(a.id);
      io.err(`Register this redirect URI with ${a.provider}: ${a.redirect_uri}`);
    });
  },
};
