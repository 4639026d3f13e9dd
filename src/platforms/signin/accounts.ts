// Which lister reads the accounts a provider's sign-in reaches; the person picks among what it returns.
import { facebookAccounts } from "../facebook/signin.ts";
import { instagramAccounts } from "../instagram/signin.ts";
import { linkedinAccounts, linkedinPagesAccounts } from "../linkedin/signin.ts";
import { pinterestAccounts } from "../pinterest/signin.ts";
import { threadsAccounts } from "../threads/signin.ts";
import { tiktokAccounts } from "../tiktok/signin.ts";
import { xAccounts } from "../x/signin.ts";
import { youtubeAccounts } from "../youtube/signin.ts";
import type { AccountLister } from "./types.ts";

export type { AccountLister, AccountsOutcome, SignInAccount } from "./types.ts";

const listers: ReadonlyMap<string, AccountLister> = new Map([
  ["x", xAccounts],
  ["pinterest", pinterestAccounts],
  ["linkedin", linkedinAccounts],
  ["linkedin_pages", linkedinPagesAccounts],
  ["facebook", facebookAccounts],
  ["instagram", instagramAccounts],
  ["threads", threadsAccounts],
  ["youtube", youtubeAccounts],
  ["tiktok", tiktokAccounts],
]);

/** How a provider's accounts are listed after signing in; null where signing in is not built yet. */
export function accountLister(provider: string): AccountLister | null {
  return listers.get(provider) ?? null;
}
