// What an org's status (interface.md "Org status") lets a change do: only an active org changes. Shared by the
// dashboard's route wrapper and the use cases that act on an org without a member's session (accepting an
// invitation), so they refuse with the same codes the API's pipeline uses.
import { ServiceError } from "../../lib/errors.ts";

export function orgWriteRefusal(status: string, note: string | null): ServiceError | null {
  const n = note ? ` ${note}` : "";
  if (status === "suspended")
    return new ServiceError(403, "org_suspended", `This org is suspended by the operator.${n}`);
  if (status === "read_only") return new ServiceError(403, "org_read_only", `This org is read-only.${n}`);
  return null;
}
