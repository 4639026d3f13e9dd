// Notifications belong to a person: only a person's credential (a user token or the dashboard) reaches them; an
// API key is refused (reference §1: notifications endpoints accept user tokens only).
import { ServiceError } from "../../lib/errors.ts";
import type { Actor } from "../actor.ts";

export function requirePerson(actor: Actor): string {
  if (actor.kind !== "user" || !actor.userId)
    throw new ServiceError(
      403,
      "forbidden",
      "Notifications belong to a person: use a user token (svc auth login) or the dashboard, not an API key.",
    );
  return actor.userId;
}
