// A template's `approval` decides whether posts made from it wait for a person: `inherit` follows the brand's
// policy, `required` and `not_required` override it (reference §6, Approval).
import { type Problem, problem } from "../../lib/errors.ts";

export const APPROVALS = ["inherit", "required", "not_required"] as const;
export type Approval = (typeof APPROVALS)[number];

/** New templates inherit the brand's policy unless told otherwise. */
export const DEFAULT_APPROVAL: Approval = "inherit";

export const isApproval = (value: unknown): value is Approval => APPROVALS.includes(value as Approval);

/** `approval_invalid` unless the value is one of inherit, required, not_required. */
export function checkApproval(value: unknown, param = "approval"): Problem | undefined {
  if (isApproval(value)) return undefined;
  return problem("approval_invalid", `\`${param}\` must be one of ${APPROVALS.join(", ")}.`, param);
}
