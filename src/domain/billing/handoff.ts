// The billing hand-off (interface.md "Org hosting"): an owner follows a Billing link to SVC_BILLING_URL carrying
// `token=v1.<payload>.<signature>`. The payload (base64url JSON, no padding) says who comes from which org; the
// signature is HMAC-SHA256 over "v1." + payload with SVC_BILLING_LINK_KEY. Valid five minutes. The receiver
// verifies in constant time, rejects expired tokens and accepts each once (docs/hosting.md shows one).
import type { App } from "../../app/context.ts";
import { nodeCrypto } from "../../crypto/node.ts";
import { ServiceError } from "../../lib/errors.ts";
import type { Actor } from "../actor.ts";

export const HANDOFF_TTL_SECONDS = 300;

export interface HandoffPayload {
  org: string;
  external_ref: string | null;
  user: string;
  email: string;
  role: string;
  iat: number;
  exp: number;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString("base64url");

export function signHandoff(key: string, payload: HandoffPayload): string {
  const body = b64url(JSON.stringify(payload));
  const sig = nodeCrypto().createHmac("sha256", key).update(`v1.${body}`).digest();
  return `v1.${body}.${b64url(sig)}`;
}

/** The Billing link for an owner of the actor's org: a fresh token each time it is followed. */
export async function billingLink(app: App, actor: Actor): Promise<string> {
  const { billingUrl, billingLinkKey } = app.config;
  if (!billingUrl || !billingLinkKey)
    throw new ServiceError(404, "resource_missing", "This install has no billing page.");
  if (actor.role !== "owner" || !actor.userId)
    throw new ServiceError(403, "forbidden", "Only the org's owners manage billing.");
  const [org, user] = await Promise.all([
    app.db
      .selectFrom("orgs")
      .select(["id", "external_ref"])
      .where("id", "=", actor.orgId)
      .executeTakeFirstOrThrow(),
    app.db
      .selectFrom("users")
      .select(["id", "email"])
      .where("id", "=", actor.userId)
      .executeTakeFirstOrThrow(),
  ]);
  const iat = Math.floor(app.clock.now() / 1000);
  const token = signHandoff(billingLinkKey, {
    org: org.id,
    external_ref: org.external_ref,
    user: user.id,
    email: user.email,
    role: actor.role,
    iat,
    exp: iat + HANDOFF_TTL_SECONDS,
  });
  const url = new URL(billingUrl);
  url.searchParams.set("token", token);
  return url.toString();
}
