import { bootstrap } from "../../domain/bootstrap/service.ts";
import { ask, intro } from "../client/prompt.ts";
import { UsageError } from "../output.ts";
import { type AdminCommand, flags, passwordFromStdin } from "./command.ts";
import { withAdmin } from "./context.ts";

export const bootstrapCommand: AdminCommand = {
  name: "bootstrap",
  usage:
    "svc admin bootstrap --email EMAIL --org NAME [--brand NAME] [--name NAME] [--timezone UTC] [--sandbox true] [--password-stdin]",
  async run(args, io) {
    const f = flags(args, {
      email: { type: "string" },
      org: { type: "string" },
      brand: { type: "string" },
      name: { type: "string" },
      timezone: { type: "string" },
      sandbox: { type: "string" },
      "password-stdin": { type: "boolean" },
    });
    // At a terminal, what is missing is asked for; a script gets the missing flag named instead.
    if (f.email === undefined || f.org === undefined) {
      if (!(process.stdin.isTTY && process.stdout.isTTY))
        throw new UsageError(
          `--${f.email === undefined ? "email" : "org"} is required (no terminal to ask on)`,
        );
      intro("Set up this server");
      f.email ??= await ask.text("Your email (the first admin)", { placeholder: "you@example.com" });
      f.org ??= await ask.text("Organization name", { placeholder: "Acme" });
      if (f.brand === undefined) {
        const brand = await ask.text("First brand (empty: named after the organization)", {
          required: false,
        });
        if (brand) f.brand = brand;
      }
    }
    const password = f["password-stdin"] ? await passwordFromStdin(io) : null;
    await withAdmin(io, async ({ app }) => {
      const r = await bootstrap(app, {
        email: f.email!,
        org: f.org!,
        brand: f.brand,
        name: f.name ?? null,
        timezone: f.timezone,
        sandbox: f.sandbox === undefined ? true : f.sandbox !== "false",
        password,
      });
      io.out(`Org:      ${r.org.name} (${r.org.id})`);
      io.out(`Brand:    ${r.brand.name} (${r.brand.slug}, ${r.brand.id})`);
      const channel = (r as { channel?: { id: string; provider: string; emulates: string } }).channel;
      if (channel) io.out(`Channel:  sandbox emulating ${channel.emulates} (${channel.id}, test mode)`);
      io.out(`Admin:    ${r.user.email}`);
      if (r.password)
        io.out(
          `Password: ${r.password}\n          (shown once; the dashboard asks you to choose your own after signing in)`,
        );
    });
  },
};
