// The inputs of members and invitations, apart from their use cases so that the route table can check them without
// loading those (docs/performance.md, "Start and idle memory").
import * as v from "valibot";
import { ROLES } from "../../scopes.ts";
import { rule } from "../../validate.ts";
import { email } from "../users/email.ts";

export const role = v.pipe(
  v.string(),
  v.picklist(ROLES, rule("role_invalid", "role must be owner, admin, editor or viewer.")),
);
export const MemberUpdate = v.strictObject({ role });
export const InvitationCreate = v.strictObject({
  email,
  role,
  send_email: v.optional(v.boolean()),
});
