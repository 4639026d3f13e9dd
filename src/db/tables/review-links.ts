import type { Bool } from "./bool.ts";

/** A client review link (migration 0035): only the token's SHA-256 is stored. */
export interface ReviewLinksTable {
  id: string;
  org_id: string;
  livemode: Bool;
  brand_id: string;
  name: string;
  token_hash: string;
  created_by_user: string | null;
  created_by_key: string | null;
  expires_at: number;
  withdrawn_at: number | null;
  last_used_at: number | null;
  created_at: number;
}

export interface ReviewLinkTables {
  review_links: ReviewLinksTable;
}
