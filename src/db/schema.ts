// Table types for Kysely. Times are epoch ms; booleans are 0/1; JSON columns are TEXT.
import type { Generated } from "kysely";
import type { Bool } from "./tables/bool.ts";
import type { ChannelTables } from "./tables/channels.ts";
import type { ConnectTables } from "./tables/connect.ts";
import type { EngagementTables } from "./tables/engagement.ts";
import type { IdentityTables } from "./tables/identity.ts";
import type { InsightTables } from "./tables/insights.ts";
import type { MediaTables } from "./tables/media.ts";
import type { NewsletterTables } from "./tables/newsletters.ts";
import type { NotificationTables } from "./tables/notifications.ts";
import type { PostTables } from "./tables/posts.ts";
import type { ReportTables } from "./tables/reports.ts";
import type { ReviewLinkTables } from "./tables/review-links.ts";
import type { SessionTables } from "./tables/sessions.ts";
import type { TemplateTables } from "./tables/templates.ts";
import type { TrustTables } from "./tables/trust.ts";
import type { WebhookTables } from "./tables/webhooks.ts";

export type { Bool };

export interface OrgsTable {
  id: string;
  name: string;
  status: string;
  status_note: string | null;
  require_mfa: Bool;
  require_sso: Bool;
  limit_brands: number | null;
  limit_channels: number | null;
  limit_members: number | null;
  limit_posts_per_month: number | null;
  external_ref: string | null;
  created_at: number;
  updated_at: number;
}

export interface OrgKeysTable {
  org_id: string;
  master_key_id: string;
  wrapped: string;
  created_at: number;
  rotated_at: number | null;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string | null;
  password_hash: string | null;
  /** When the password was generated and printed for the person (bootstrap, the operator's reset); null once
   * they chose their own, or when it was never printed. */
  password_printed_at: number | null;
  timezone: string;
  disabled_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface MembersTable {
  org_id: string;
  user_id: string;
  role: string;
  created_at: number;
}

export interface BrandsTable {
  id: string;
  org_id: string;
  name: string;
  slug: string;
  timezone: string;
  approval_policy: string;
  utm_domains: string;
  slots: string;
  email_theme: string | null;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  livemode: Bool;
  name: string;
  hash: string;
  hint: string;
  scopes: string | null;
  brand_id: string | null;
  expires_at: number | null;
  revoked_at: number | null;
  rolled_from: string | null;
  /** The first key of the roll chain (null on keys written by an older release: the key itself). */
  lineage_id: string | null;
  /** The key this one was rolled to, if any. */
  rolled_to: string | null;
  created_by_user: string | null;
  created_by_key: string | null;
  created_at: number;
  last_used_at: number | null;
}

export interface UserTokensTable {
  id: string;
  user_id: string;
  livemode: Bool;
  name: string;
  hash: string;
  hint: string;
  via_sso: Bool;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface OperatorKeysTable {
  id: string;
  name: string;
  hash: string;
  hint: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface AuditEventsTable {
  id: string;
  org_id: string | null;
  livemode: Bool | null;
  action: string;
  target: string | null;
  user_id: string | null;
  api_key_id: string | null;
  user_token_id: string | null;
  operator: string | null;
  outcome: string;
  request_id: string | null;
  detail: string | null;
  created_at: number;
  /** The client review link that acted (migration 0035); null for every other actor. */
  review_link_id?: string | null;
}

export interface AuditThrottleTable {
  key: string;
  created_at: number;
}

export interface EventsTable {
  seq: Generated<number>;
  id: string;
  org_id: string;
  livemode: Bool;
  type: string;
  request_id: string | null;
  data: string;
  created_at: number;
}

export interface RequestLogTable {
  id: string;
  org_id: string;
  livemode: Bool;
  method: string;
  path: string;
  status: number;
  code: string | null;
  duration_ms: number;
  api_key_id: string | null;
  user_token_id: string | null;
  created_at: number;
}

export interface IdempotencyKeysTable {
  credential_id: string;
  key: string;
  fingerprint: string;
  state: "running" | "done";
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

export interface TaskLeasesTable {
  name: string;
  owner: string | null;
  leased_until: number | null;
  last_fire: number | null;
  last_started_at: number | null;
  last_success_at: number | null;
  consecutive_failures: number;
  last_error: string | null;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: number;
}

/** The core tables; features add theirs in src/db/tables/<noun>.ts and extend DB below. */
export interface CoreTables {
  orgs: OrgsTable;
  org_keys: OrgKeysTable;
  users: UsersTable;
  members: MembersTable;
  brands: BrandsTable;
  api_keys: ApiKeysTable;
  user_tokens: UserTokensTable;
  operator_keys: OperatorKeysTable;
  audit_events: AuditEventsTable;
  audit_throttle: AuditThrottleTable;
  events: EventsTable;
  request_log: RequestLogTable;
  idempotency_keys: IdempotencyKeysTable;
  task_leases: TaskLeasesTable;
  schema_migrations: SchemaMigrationsTable;
}

export interface DB
  extends CoreTables,
    ChannelTables,
    TemplateTables,
    WebhookTables,
    PostTables,
    IdentityTables,
    SessionTables,
    EngagementTables,
    InsightTables,
    MediaTables,
    ConnectTables,
    NotificationTables,
    TrustTables,
    ReviewLinkTables,
    ReportTables,
    NewsletterTables {}

/** Column list for plain SQL text (see POST_COLUMNS in tables/posts.ts). */
export const BRAND_COLUMNS = [
  "id",
  "org_id",
  "name",
  "slug",
  "timezone",
  "approval_policy",
  "utm_domains",
  "slots",
  "email_theme",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof BrandsTable)[];
