// Work that must happen in the transaction that adds a member (the "someone joined" notification). The
// composition root (src/boot.ts) registers every hook, so members/ depends on no feature.
import type { App } from "../../../app/context.ts";
import type { Tx } from "../../../db/index.ts";

export interface MemberJoined {
  orgId: string;
  userId: string;
  role: string;
  /** Who added them (the inviter, or the person who added them directly); null for the operator. */
  addedBy: string | null;
}

export type MemberJoinedHook = (tx: Tx, app: App, joined: MemberJoined) => Promise<void>;
export const memberJoinedHooks: MemberJoinedHook[] = [];

/** Adds a hook once (registering twice is harmless). */
export function onMemberJoined(hook: MemberJoinedHook): void {
  if (!memberJoinedHooks.includes(hook)) memberJoinedHooks.push(hook);
}
