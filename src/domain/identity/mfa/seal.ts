// A person's TOTP secret belongs to no org, so it is sealed with the master key itself (not an org's data key),
// bound to its table, row and column like every sealed value; `svc admin keys rotate` rewraps it.
import type { App } from "../../../app/context.ts";

export const sealForUser = (app: App, userId: string, plaintext: string): Promise<string> =>
  app.keys.sealForUser(userId, plaintext);

export const openForUser = (app: App, userId: string, sealed: string): Promise<string> =>
  app.keys.openForUser(userId, sealed);
