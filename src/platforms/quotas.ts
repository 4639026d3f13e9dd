// Networks whose uploads spend a daily quota of the developer app (YouTube): which, and how much. The publish
// worker reserves an upload's units for the channel's app before the network is called (domain/targets/quota.ts).
import type { UploadQuota } from "./youtube/quota.ts";
import { youtubeQuota } from "./youtube/quota.ts";

export type { UploadQuota } from "./youtube/quota.ts";
export { quotaDay, waitForReset } from "./youtube/quota.ts";

const quotas: ReadonlyMap<string, UploadQuota> = new Map([["youtube", youtubeQuota]]);

/** The daily upload quota a provider's channels share per app; null where the network keeps none. */
export function uploadQuota(provider: string): UploadQuota | null {
  return quotas.get(provider) ?? null;
}
