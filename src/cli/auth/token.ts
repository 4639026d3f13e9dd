// svc auth token [--live]: prints the credential a command would use (SVC_TOKEN when set).
import type { ClientCommand } from "../client/command.ts";

export const authToken: ClientCommand = {
  name: "auth token",
  summary: "Print the stored test (or --live) credential",
  usage: "svc auth token [--hostname HOST] [--live]",
  help: 'Example:\n  curl -H "Authorization: Bearer $(svc auth token)" https://svc.example.com/v1/me',
  async run(ctx) {
    ctx.io.out((await ctx.credential()).token);
    return 0;
  },
};
