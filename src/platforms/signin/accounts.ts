// What a network's tokens reach: the accounts a sign-in offers as channels (the member, their Pages, their
// boards). Each network that connects by sign-in has a lister; the person picks among what it returns.
import type { App } from "../../app/context.ts";
import { xAccounts } from "../x/signin.ts";

export interface SignInAccount {
  /** The network's ID of the account; reconnecting the same account keeps its channel. */
  key: string;
  display_name: string | null;
  handle: string | null;
  profile_url: string | null;
  /** Non-secret facts the adapter needs to publish as it (shown as the channel's settings). */
  settings: Record<string, string>;
}

export type AccountsOutcome =
  | { kind: "accounts"; accounts: SignInAccount[] }
  /** The network refused the token: the sign-in failed. */
  | { kind: "rejected"; message: string }
  | { kind: "unavailable"; message: string };

export type AccountLister = (app: App, accessToken: string, signal: AbortSignal) => Promise<AccountsOutcome>;

const listers: ReadonlyMap<string, AccountLister> = new Map([["x", xAccounts]]);

/** How a provider's accounts are listed after signing in; null where signing in is not built yet. */
export function accountLister(provider: string): AccountLister | null {
  return listers.get(provider) ?? null;
}
