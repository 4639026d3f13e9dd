// The operator acting through the operator API: an operator key, across orgs. Inside one org it acts with an
// owner's permissions (as `svc admin` does), and its audit rows carry the operator key's ID and no member.
import { type Actor, adminActor } from "../actor.ts";
import type { OperatorActor } from "../identity/auth/operator.ts";
import { scopesOfRole } from "../scopes.ts";

export function operatorInOrg(op: OperatorActor, orgId: string): Actor {
  return {
    ...adminActor(orgId, op.operatorKeyId, scopesOfRole("owner")),
    kind: "operator",
    requestId: op.requestId,
  };
}

/** The operator outside any org: what the request pipeline rate-limits and keys idempotent answers by. */
export function operatorActor(op: OperatorActor): Actor {
  return operatorInOrg(op, "");
}
