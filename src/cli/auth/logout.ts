// svc auth logout: revokes the stored user tokens on the server (DELETE /v1/auth/token; API keys are left for the
// dashboard to revoke), then forgets both credentials of the host.
import { send } from "../client/api.ts";
import type { ClientCommand } from "../client/command.ts";
import { resolveHost, storedSecret } from "./credentials.ts";
import type { Mode } from "./hosts.ts";
import { forgetHost } from "./store.ts";

export const authLogout: ClientCommand = {
  name: "auth logout",
  summary: "Revoke and forget both credentials of a server",
  usage: "svc auth logout [--hostname HOST]",
  help: "Example:\n  svc auth logout --hostname svc.example.com",
  async run(ctx) {
    const host = resolveHost({ hostname: ctx.global.hostname, env: { ...ctx.env, SVC_HOST: undefined } });
    if (!host.entry) throw new Error(`not signed in to ${host.key}`);
    for (const mode of ["test", "live"] as Mode[]) {
      const secret = await storedSecret(host.key, host.entry, mode);
      if (!secret?.token.startsWith("svc_user_")) continue;
      const r = await send({ url: host.url, token: secret.token }, "DELETE", "/v1/auth/token").catch(
        () => null,
      );
      if (!r || (r.status >= 300 && r.status !== 401))
        ctx.io.err(
          `${ctx.c.yellow("!")} could not revoke the ${mode} token on the server; revoke it on the dashboard's Devices page`,
        );
    }
    await forgetHost(host.key, ctx.env);
    ctx.io.err(`${ctx.c.green("✓")} Logged out of ${host.key}`);
    return 0;
  },
};
