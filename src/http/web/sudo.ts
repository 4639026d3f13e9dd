// Sudo mode on a form: a page shows a password field while the session's confirmation is older than 10 minutes;
// the handler confirms the password typed there before it acts (a wrong one is an error beside the field).
import { isRecentAuth } from "../../domain/identity/auth/sudo.ts";
import { confirmPassword } from "../../domain/identity/sessions/signin.ts";
import type { Web } from "./page.ts";

export const sudoNeeded = (w: Web) => !isRecentAuth(w.app, w.session?.confirmed_at);

export async function confirmIfGiven(w: Web): Promise<void> {
  const password = w.form.get("password");
  if (password) await confirmPassword(w.app, w.session!, password, w.meta.ip);
}
