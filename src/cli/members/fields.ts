// Member (reference §4) and finding one by user ID or email.
import type { Ctx } from "../client/command.ts";

export const MEMBER_FIELDS = ["id", "email", "name", "role", "mfa", "joined_at"] as const;
export interface Member {
  id: string;
  email: string;
  name: string | null;
  role: string;
  mfa: boolean;
  joined_at: string;
}

// /v1/members answers every member at once (no pages).
export const ROLES = ["owner", "admin", "editor", "viewer"] as const;

/** A user ID as given, or the ID of the member with that email. */
export async function memberId(ctx: Ctx, who: string): Promise<string> {
  if (/^user_/.test(who)) return who;
  const all = (await ctx.api("GET", "/v1/members")).body.data as Member[];
  const m = all.find((x) => String(x.email).toLowerCase() === who.toLowerCase());
  if (!m) throw new Error(`no member with email ${who}`);
  return m.id;
}
