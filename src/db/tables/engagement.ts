import type { Bool } from "./bool.ts";

/** One per published target: its engagement state, latest counts and next reading. */
export interface TargetEngagementTable {
  target_id: string;
  org_id: string;
  livemode: Bool;
  post_id: string;
  channel_id: string;
  provider: string;
  /** collecting | done | deleted | unsupported */
  state: string;
  likes: number;
  reposts: number;
  replies: number;
  quotes: number;
  views: number | null;
  published_at: number;
  /** Scheduled readings taken so far (0-6). */
  readings: number;
  /** Failed tries of the reading now due. */
  failures: number;
  last_error: string | null;
  read_at: number | null;
  next_read_at: number | null;
  updated_at: number;
}

export interface EngagementReadingsTable {
  id: string;
  target_id: string;
  org_id: string;
  read_at: number;
  likes: number;
  reposts: number;
  replies: number;
  quotes: number;
  views: number | null;
}

export interface EngagementTables {
  target_engagement: TargetEngagementTable;
  engagement_readings: EngagementReadingsTable;
}
