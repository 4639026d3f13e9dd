// svc admin members list|add|role|remove: the operator acting with an owner's permissions in --org.
import {
  addMember,
  listMembers,
  removeMember,
  setMemberRole,
} from "../../../domain/identity/members/service.ts";
import { table } from "../../output.ts";
import { type AdminCommand, flags, passwordFromStdin } from "../command.ts";
import { withAdmin } from "../context.ts";

export const membersList: AdminCommand = {
  name: "members list",
  usage: "svc admin members list [--org ORG]",
  async run(args, io) {
    const f = flags(args, { org: { type: "string" } });
    await withAdmin(io, async (ctx) => {
      const rows = await listMembers(ctx.app, await ctx.actorIn(f.org, "members list"));
      io.out(
        table([["EMAIL", "ROLE", "JOINED", "ID"], ...rows.map((m) => [m.email, m.role, m.joined_at, m.id])]),
      );
    });
  },
};

export const membersAdd: AdminCommand = {
  name: "members add",
  usage: "svc admin members add [--org ORG] --email EMAIL --role ROLE [--password-stdin]",
  async run(args, io) {
    const f = flags(
      args,
      {
        org: { type: "string" },
        email: { type: "string" },
        role: { type: "string" },
        "password-stdin": { type: "boolean" },
      },
      ["email", "role"],
    );
    const password = f["password-stdin"] ? await passwordFromStdin(io) : null;
    await withAdmin(io, async (ctx) => {
      const r = await addMember(ctx.app, await ctx.actorIn(f.org, "members add"), {
        email: f.email,
        role: f.role,
        password,
      });
      io.out(`Added ${r.member.email} as ${r.member.role}.`);
      if (r.password) io.out(`Temporary password: ${r.password}  (shown once)`);
    });
  },
};

export const membersRole: AdminCommand = {
  name: "members role",
  usage: "svc admin members role [--org ORG] --email EMAIL --role ROLE",
  async run(args, io) {
    const f = flags(args, { org: { type: "string" }, email: { type: "string" }, role: { type: "string" } }, [
      "email",
      "role",
    ]);
    await withAdmin(io, async (ctx) => {
      const m = await setMemberRole(ctx.app, await ctx.actorIn(f.org, "members role"), {
        email: f.email!,
        role: f.role!,
      });
      io.out(`${m.email} is now ${m.role}.`);
    });
  },
};

export const membersRemove: AdminCommand = {
  name: "members remove",
  usage: "svc admin members remove [--org ORG] --email EMAIL",
  async run(args, io) {
    const f = flags(args, { org: { type: "string" }, email: { type: "string" } }, ["email"]);
    await withAdmin(io, async (ctx) => {
      await removeMember(ctx.app, await ctx.actorIn(f.org, "members remove"), { email: f.email! });
      io.out(`Removed ${f.email}.`);
    });
  },
};
