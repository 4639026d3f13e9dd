// What every `svc admin` command has: the deployment configuration, an App on the database (migrated first),
// and an operator Actor in the org named by --org (not needed on a one-org server).
import { loadConfig } from "../../app/config.ts";
import { type App, createApp } from "../../app/context.ts";
import { type Actor, adminActor } from "../../domain/actor.ts";
import { findOrg } from "../../domain/orgs/service.ts";
import { scopesOfRole } from "../../domain/scopes.ts";
import type { Io } from "../output.ts";

export interface AdminContext {
  app: App;
  io: Io;
  /** The operator acting in an org with an owner's permissions; audit rows carry the command name. */
  actorIn(org: string | undefined, command: string, livemode?: boolean): Promise<Actor>;
}

export async function withAdmin<T>(io: Io, fn: (ctx: AdminContext) => Promise<T>): Promise<T> {
  const app = createApp(loadConfig());
  try {
    if (app.config.autoMigrate) await app.migrate();
    return await fn({
      app,
      io,
      async actorIn(org, command, livemode = false) {
        const row = await findOrg(app.db, org);
        return adminActor(row.id, command, scopesOfRole("owner"), livemode);
      },
    });
  } finally {
    await app.close();
  }
}
