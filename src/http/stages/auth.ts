// Stage 1: the schema is current, and the bearer credential says who calls (an org's key or token, or the
// operator on operator routes).
import { authenticate } from "../../domain/identity/auth/authenticate.ts";
import { authenticateOperator } from "../../domain/identity/auth/operator.ts";
import { operatorActor } from "../../domain/operator/actor.ts";
import { ServiceError } from "../../lib/errors.ts";
import type { Exchange } from "./exchange.ts";

export async function auth(x: Exchange): Promise<void> {
  const { app, route, request, requestId } = x;
  if (!(await app.schemaReady())) {
    throw new ServiceError(
      503,
      "service_unavailable",
      "The database schema is being migrated; retry shortly.",
    );
  }
  if (route.operator) {
    x.operator = await authenticateOperator(app, request.headers.get("authorization"), requestId);
    x.caller = { ...operatorActor(x.operator), orgStatus: "active", orgStatusNote: null };
    return;
  }
  const a = await authenticate(app, {
    authorization: request.headers.get("authorization"),
    org: request.headers.get("svc-org"),
    requestId,
  });
  x.caller = a;
  x.actor = a;
}
