// Who is acting: an API key, a person with a user token, or the operator through `svc admin`. Every service
// function takes one; permission checks read it and audit rows record it.
import { ServiceError } from "../lib/errors.ts";
import type { Role, Scope } from "./scopes.ts";

export interface Actor {
  kind: "api_key" | "user" | "admin_cli" | "operator" | "review_link";
  orgId: string;
  livemode: boolean;
  scopes: ReadonlySet<Scope>;
  /** A brand-limited key sees and changes only this brand. */
  brandId: string | null;
  apiKeyId: string | null;
  /**
   * The first key of the acting key's roll chain: a rolled key is the same credential as the key it replaced, for
   * every rule that compares the acting key (review of its own posts, rate limit, Idempotency-Key store).
   */
  keyLineageId?: string | null;
  /** Listed scopes of the key (null = full integration access); what a key may pass on when it creates keys. */
  keyScopes: readonly string[] | null;
  keyExpiresAt: number | null;
  userId: string | null;
  userTokenId: string | null;
  role: Role | null;
  /**
   * A client review link acting (domain/review-links/): the decision is the link's, recorded as such in the post's
   * review and the audit row. Unset for every other actor.
   */
  reviewLinkId?: string | null;
  /** The admin command name, for audit rows written by `svc admin`. */
  operator: string | null;
  requestId: string;
}

/** The credential a rule compares: the key's lineage for API keys (a rolled key is the same credential). */
export const credentialOf = (actor: Actor): string | null =>
  actor.keyLineageId ?? actor.apiKeyId ?? (actor.kind === "operator" ? actor.operator : null);

/** 403 for a missing permission: keys lack a scope, people lack a role. */
export function requireScope(actor: Actor, scope: Scope): void {
  if (actor.scopes.has(scope)) return;
  if (actor.kind === "api_key") {
    throw new ServiceError(403, "scope_missing", `This key lacks the ${scope} scope.`, { detail: { scope } });
  }
  throw new ServiceError(403, "forbidden", `Your role does not allow this (needs ${scope}).`, {
    detail: { scope },
  });
}

/** A brand-limited key may touch only its brand; other brands look missing. */
export function brandVisible(actor: Actor, brandId: string): boolean {
  return actor.brandId === null || actor.brandId === brandId;
}

export function adminActor(
  orgId: string,
  command: string,
  scopes: ReadonlySet<Scope>,
  livemode = false,
): Actor {
  return {
    kind: "admin_cli",
    orgId,
    livemode,
    scopes,
    brandId: null,
    apiKeyId: null,
    keyScopes: null,
    keyExpiresAt: null,
    userId: null,
    userTokenId: null,
    role: "owner",
    operator: command,
    requestId: "admin-cli",
  };
}
