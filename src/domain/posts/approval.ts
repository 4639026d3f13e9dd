// Whether a post needs approval (reference §6): a template's `required` always, `not_required` never; `inherit`
// follows the brand: `required_for_all` always, `required_for_editors_and_keys` for keys and roles below admin.
import type { Actor } from "../actor.ts";
import { roleAtLeast } from "../scopes.ts";

export function needsApproval(templateApproval: string | null, brandPolicy: string, actor: Actor): boolean {
  if (templateApproval === "required") return true;
  if (templateApproval === "not_required") return false;
  if (brandPolicy === "required_for_all") return true;
  if (brandPolicy === "required_for_editors_and_keys") {
    if (actor.kind === "api_key") return true;
    return !roleAtLeast(actor.role ?? "viewer", "admin");
  }
  return false;
}
