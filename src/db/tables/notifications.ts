// Notifications, their preferences and used unsubscribe links (migration 0024).
import type { Bool } from "./bool.ts";

/**
 * What the notification is owed by email: none (email off for it, or no SMTP), immediate, digest (the 08:00
 * summary), queued (handed to the mail outbox as `mail_id`), suppressed (over 30 an hour: dashboard only).
 */
export type NotificationEmail = "none" | "immediate" | "digest" | "queued" | "suppressed";

export interface NotificationsTable {
  id: string;
  org_id: string;
  user_id: string;
  type: string;
  object_id: string | null;
  subject: string;
  body: string;
  link: string;
  email: NotificationEmail;
  mail_id: string | null;
  read_at: number | null;
  created_at: number;
}

export interface NotificationPreferencesTable {
  user_id: string;
  org_id: string;
  type: string;
  email: Bool;
  delivery: "immediate" | "daily";
  updated_at: number;
}

export interface UnsubscribeUsesTable {
  nonce: string;
  used_at: number;
}

export interface NotificationTables {
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  unsubscribe_uses: UnsubscribeUsesTable;
}
