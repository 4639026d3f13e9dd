// Who may manage members and the org (interface.md Authentication 2 and 8; reference §1): people only (a user
// token, the dashboard, or the operator's `svc admin`), never an API key; and owner changes need a recent password
// confirmation, which only the dashboard can give, so a user token is told to use the dashboard.
import type { App } from "../../../app/context.ts";
import { ServiceError } from "../../../lib/errors.ts";
import type { Actor } from "../../actor.ts";
import { requireRecentAuth } from "../auth/sudo.ts";

/** Refuses API keys: members, invitations and org settings accept user tokens only. */
export function requirePersonCredential(actor: Actor): void {
  if (actor.kind === "api_key")
    throw new ServiceError(
      403,
      "forbidden",
      "Members, invitations and org settings accept user tokens only (svc auth login), not API keys.",
    );
}

/** Options a dashboard page passes: when its person last confirmed their password (sudo mode). */
export interface SudoOptions {
  confirmedAt?: number | null;
}

/**
 * Making, changing or removing an owner (and turning off required two-factor): only an owner, and only with a
 * recent password confirmation. The operator's admin commands act with the operator's authority.
 */
export function requireOwnerChange(
  app: App,
  actor: Actor,
  opts: SudoOptions | undefined,
  what: string,
): void {
  if (actor.kind === "admin_cli" || actor.kind === "operator") return;
  if (actor.role !== "owner") throw new ServiceError(403, "forbidden", `Only an owner can ${what}.`);
  if (actor.userTokenId)
    throw new ServiceError(
      403,
      "reauthentication_required",
      `To ${what}, use the dashboard: it needs a recent password confirmation.`,
    );
  requireRecentAuth(app, opts?.confirmedAt);
}
