// Sudo mode: a recent password confirmation, needed for creating API keys, changing two-factor, approving a CLI
// sign-in, owner changes and deleting the org (interface.md Authentication 3 and 8). The dashboard session records
// when its person last confirmed; domain functions that need it take that time and call requireRecentAuth.
import type { App } from "../../../app/context.ts";
import { ServiceError } from "../../../lib/errors.ts";

/** How long a password confirmation counts as recent. */
export const SUDO_WINDOW_MS = 10 * 60_000;

export function isRecentAuth(app: App, confirmedAt: number | null | undefined): boolean {
  return typeof confirmedAt === "number" && app.clock.now() - confirmedAt < SUDO_WINDOW_MS;
}

/** 403 `reauthentication_required` unless the person confirmed their password within the window. */
export function requireRecentAuth(app: App, confirmedAt: number | null | undefined): void {
  if (!isRecentAuth(app, confirmedAt))
    throw new ServiceError(403, "reauthentication_required", "Confirm your password to continue.");
}
