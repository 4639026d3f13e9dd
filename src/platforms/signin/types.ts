// What a network's tokens reach: the accounts a sign-in offers as channels (the member, their Pages, their
// boards), as each network's lister reports them.
import type { App } from "../../app/context.ts";

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
  | {
      kind: "accounts";
      accounts: SignInAccount[];
      /**
       * A token per account key where each account is published to with its own (a Facebook Page's token), kept
       * sealed with the sign-in's tokens, never in the accounts list.
       */
      accountTokens?: Record<string, string>;
    }
  /** The network refused the token: the sign-in failed. */
  | { kind: "rejected"; message: string }
  | { kind: "unavailable"; message: string };

export type AccountLister = (app: App, accessToken: string, signal: AbortSignal) => Promise<AccountsOutcome>;
