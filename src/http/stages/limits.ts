// Stage 2: the caller's rate limit, and a read-only org's refusal of every change.
import { credentialOf } from "../../domain/actor.ts";
import { ServiceError } from "../../lib/errors.ts";
import type { Exchange } from "./exchange.ts";

export function limits(x: Exchange): void {
  const a = x.caller!;
  const rl = x.ctx.limiter.take(credentialOf(a) ?? a.userTokenId ?? a.orgId, x.app.clock.now());
  x.rateHeaders = rl.headers;
  if (!rl.ok) {
    throw new ServiceError(429, "rate_limited", "Too many requests; slow down.", {
      headers: { "Retry-After": String(rl.retryAfter) },
    });
  }
  if (a.orgStatus === "read_only" && x.route.method !== "GET" && !x.route.safe) {
    throw new ServiceError(
      403,
      "org_read_only",
      `This org is read-only.${a.orgStatusNote ? ` ${a.orgStatusNote}` : ""}`,
    );
  }
}
