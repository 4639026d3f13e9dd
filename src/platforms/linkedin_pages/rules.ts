import { linkedin } from "../linkedin/rules.ts";
import type { PlatformRules } from "../types.ts";

// Company Pages post under the same rules as the member feed, but through a separate app (Community Management
// API) signed in by OAuth only; each administered Page becomes a channel, so there is nothing to type in.
export const linkedin_pages: PlatformRules = {
  ...linkedin,
  provider: "linkedin_pages",
  name: "LinkedIn Pages",
  connect_fields: [],
};
