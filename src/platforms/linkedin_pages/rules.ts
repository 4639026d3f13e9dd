import { linkedin } from "../linkedin/rules.ts";
import type { PlatformRules } from "../types.ts";

// Company Pages post under the same rules as the member feed, but through a separate app (Community Management
// API) signed in by OAuth only; each administered Page becomes a channel, so there is nothing to type in. A Page
// takes a first comment: the Page's own comment on its post (Comments API, learn.microsoft.com/linkedin/marketing/
// community-management/shares/comments-api), at most 1,250 characters as LinkedIn's comment box takes. A member
// channel does not (the first comments svc offers are the Page's, as agencies post them).
export const linkedin_pages: PlatformRules = {
  ...linkedin,
  provider: "linkedin_pages",
  name: "LinkedIn Pages",
  connect_fields: [],
  comments: true,
  comment_max_length: 1250,
};
