// Who manages single sign-on: an owner, in the dashboard, in sudo mode (a recent password confirmation).
import type { App } from "../../../app/context.ts";
import type { Actor } from "../../actor.ts";
import { requireOwnerChange, requirePersonCredential, type SudoOptions } from "../members/guard.ts";

export function requireSsoOwner(app: App, actor: Actor, opts: SudoOptions | undefined): void {
  requirePersonCredential(actor);
  requireOwnerChange(app, actor, opts, "manage single sign-on");
}

export const SSO_AT = (orgId: string) => ({ table: "sso_providers", row: orgId, column: "client_secret" });
