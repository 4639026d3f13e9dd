// oauth.prune (hourly): sign-ins that ran out of time are deleted, with the sealed verifier or tokens they held.
import type { App } from "../../app/context.ts";

export async function pruneSignIns(app: App): Promise<number> {
  const r = await app.db
    .deleteFrom("connect_states")
    .where("expires_at", "<=", app.clock.now())
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
