// Every migration in order. Listed by import, not read from disk, so a compiled single executable carries them.
import type { Migration } from "../src/db/migration.ts";
import core from "./0001_core.ts";
import channels from "./0002_channels.ts";
import templates from "./0003_templates.ts";
import webhooks from "./0004_webhooks.ts";
import posts from "./0005_posts.ts";
import queueIndexes from "./0006_queue_indexes.ts";
import leanQueueRows from "./0007_lean_queue_rows.ts";
import postsMonthById from "./0008_posts_month_by_id.ts";
import targetsChannelWaiting from "./0009_targets_channel_waiting.ts";
import apiKeyLineage from "./0010_api_key_lineage.ts";
import dashboardSessions from "./0011_dashboard_sessions.ts";
import identity from "./0012_identity.ts";
import engagement from "./0013_engagement.ts";
import media from "./0014_media.ts";
import invitationProof from "./0015_invitation_proof.ts";
import secretGuesses from "./0016_secret_guesses.ts";
import developerApps from "./0017_developer_apps.ts";
import signinConnections from "./0018_signin_connections.ts";
import printedPassword from "./0019_printed_password.ts";
import postsBrandTime from "./0022_posts_brand_time.ts";
import renewalClaims from "./0023_renewal_claims.ts";
import notifications from "./0024_notifications.ts";
import postLifecycle from "./0026_post_lifecycle.ts";
import enterpriseTrust from "./0027_enterprise_trust.ts";
import engagementWithoutRowid from "./0028_engagement_without_rowid.ts";
import appQuota from "./0030_app_quota.ts";
import insightsAdsAnalytics from "./0031_insights_ads_analytics.ts";
import reports from "./0032_reports.ts";
import newsletters from "./0033_newsletters.ts";
import channelsNeedsReauth from "./0034_channels_needs_reauth.ts";
import reviewLinks from "./0035_review_links.ts";
import engagementOrgIndex from "./0036_engagement_org_index.ts";

export const migrations: Migration[] = [
  core,
  channels,
  templates,
  webhooks,
  posts,
  queueIndexes,
  leanQueueRows,
  postsMonthById,
  targetsChannelWaiting,
  apiKeyLineage,
  dashboardSessions,
  identity,
  engagement,
  media,
  invitationProof,
  secretGuesses,
  developerApps,
  signinConnections,
  printedPassword,
  postsBrandTime,
  renewalClaims,
  notifications,
  postLifecycle,
  enterpriseTrust,
  engagementWithoutRowid,
  appQuota,
  insightsAdsAnalytics,
  reports,
  newsletters,
  channelsNeedsReauth,
  reviewLinks,
  engagementOrgIndex,
];
