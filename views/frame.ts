// What every dashboard page knows about the request: who is signed in, in which org and mode, the CSRF token
// for its forms, and a flash message from the previous step.

export interface OrgChoice {
  id: string;
  name: string;
  role: string;
  status: string;
  status_note: string | null;
}

export interface Frame {
  title: string;
  /** The nav entry to mark as current. */
  section?: string;
  csrf: string;
  signedIn: { email: string; name: string | null } | null;
  org: OrgChoice | null;
  orgs: OrgChoice[];
  livemode: boolean;
  flash: { kind: "ok" | "error"; text: string } | null;
  /** The path to come back to after switching org or mode. */
  path: string;
  /**
   * Whether this install sends email (SVC_SMTP_HOST is set). A page that would promise an email says instead that
   * email is off, and what to do; without it the request would only be refused (503 mail_unavailable).
   */
  mail: boolean;
  /** The scopes the member's role holds in this org: the nav offers only the pages they can use. */
  scopes: string[];
  /** The person's unread notifications in this org (the bell); null where the page has no bell. */
  unread?: number | null;
  /** Channels of this org and mode that need reconnecting (a banner on every page); null where not counted. */
  reauth?: number | null;
  /** An owner on an install with a billing page: the Billing link (/org/billing) is offered, even when suspended. */
  billing?: boolean;
}

/** Errors by field name (`param` of a problem); "" holds an error about the form as a whole. */
export type FieldErrors = Record<string, string>;

/** Flash messages are chosen from this list by key (a cookie names the key), never echoed from a request. */
export const FLASH: Record<string, { kind: "ok" | "error"; text: string }> = {
  signed_out: { kind: "ok", text: "You are signed out." },
  session_revoked: { kind: "ok", text: "The session is signed out." },
  invitation_accepted: { kind: "ok", text: "You joined the org. Welcome!" },
  signed_out_everywhere: {
    kind: "ok",
    text: "Every other browser and command line is signed out; passkeys you did not keep are removed.",
  },
  org_switched: { kind: "ok", text: "Switched org." },
  mode_test: { kind: "ok", text: "Switched to test mode." },
  mode_live: { kind: "ok", text: "Switched to live mode." },
  confirmed: { kind: "ok", text: "Password confirmed. You can change security settings for 10 minutes." },
  totp_enabled: { kind: "ok", text: "Authenticator app turned on." },
  totp_disabled: { kind: "ok", text: "Authenticator app turned off." },
  totp_canceled: { kind: "ok", text: "Setting up the authenticator app is canceled; nothing was turned on." },
  recovery_new: { kind: "ok", text: "New recovery codes made; the old ones no longer work." },
  passkey_added: { kind: "ok", text: "Passkey added." },
  passkey_renamed: { kind: "ok", text: "Passkey renamed." },
  passkey_removed: { kind: "ok", text: "Passkey removed." },
  key_revoked: { kind: "ok", text: "API key revoked. It stops working now." },
  notifications_read: { kind: "ok", text: "All notifications marked read." },
  preferences_saved: { kind: "ok", text: "Notification preferences saved." },
  mfa_required_first: {
    kind: "error",
    text: "An org you belong to requires two-factor sign-in: set up an authenticator app or a passkey first.",
  },
  session_expired: { kind: "error", text: "Your session ended. Sign in again." },
  device_revoked: { kind: "ok", text: "The device is signed out. It must sign in again." },
  member_changed: { kind: "ok", text: "Role changed." },
  member_removed: { kind: "ok", text: "Removed from the org." },
  invitation_revoked: { kind: "ok", text: "Invitation withdrawn; its link no longer works." },
  password_reset: { kind: "ok", text: "Your password is set. Sign in with it." },
  org_renamed: { kind: "ok", text: "Org renamed." },
  sso_saved: { kind: "ok", text: "Single sign-on settings saved." },
  password_changed: {
    kind: "ok",
    text: "Password changed. Every other browser and CLI signed in as you is signed out.",
  },
  post_created: { kind: "ok", text: "Post created." },
  post_canceled: { kind: "ok", text: "Post canceled: nothing more of it is published." },
  post_approved: { kind: "ok", text: "Post approved: it takes its slot." },
  post_rejected: { kind: "ok", text: "Post rejected." },
  post_moved: { kind: "ok", text: "Post moved." },
  issue_saved: { kind: "ok", text: "Draft saved." },
  issue_scheduled: { kind: "ok", text: "Issue scheduled (or sent for approval when the brand asks for it)." },
  issue_unscheduled: { kind: "ok", text: "Issue unscheduled: it is a draft again." },
  issue_canceled: { kind: "ok", text: "Issue canceled: it is not sent." },
  issue_approved: { kind: "ok", text: "Issue approved: it is scheduled." },
  issue_rejected: { kind: "ok", text: "Issue rejected: it is a draft again, with the note." },
  mail_account_connected: { kind: "ok", text: "Mail account connected." },
  mail_account_deleted: { kind: "ok", text: "Mail account deleted." },
  email_theme_saved: { kind: "ok", text: "Email theme saved." },
  webhook_saved: { kind: "ok", text: "Endpoint saved." },
  webhook_disabled: { kind: "ok", text: "Endpoint disabled: events wait until it is enabled again." },
  webhook_enabled: { kind: "ok", text: "Endpoint enabled: deliveries go out again." },
  webhook_deleted: { kind: "ok", text: "Endpoint deleted with its delivery log." },
  delivery_resent: { kind: "ok", text: "Delivery queued: it is sent again now." },
  posts_swapped: { kind: "ok", text: "The two posts traded times." },
  target_retried: { kind: "ok", text: "Queued again: it is tried once more." },
  target_marked: { kind: "ok", text: "Marked as published." },
  post_updated: { kind: "ok", text: "Post saved." },
  post_deleted: {
    kind: "ok",
    text: "Deleted from the networks that allow it; each channel shows its result.",
  },
  brand_created: {
    kind: "ok",
    text: "Brand created. Its slots are weekdays at 09:00 and 13:00: change them here.",
  },
  brand_saved: { kind: "ok", text: "Brand saved." },
  brand_deleted: { kind: "ok", text: "Brand deleted." },
  review_link_withdrawn: { kind: "ok", text: "Review link withdrawn: it no longer opens." },
  channel_connected: { kind: "ok", text: "Channel connected." },
  channel_saved: { kind: "ok", text: "Channel saved." },
  channel_disconnected: {
    kind: "ok",
    text: "Channel disconnected; posts waiting on it are canceled for it.",
  },
  app_saved: { kind: "ok", text: "Developer app saved." },
  app_removed: { kind: "ok", text: "Developer app removed." },
  media_uploaded: { kind: "ok", text: "Uploaded." },
  media_saved: { kind: "ok", text: "Alt text saved." },
  media_deleted: { kind: "ok", text: "Deleted from the library." },
  template_saved: { kind: "ok", text: "Template saved." },
  template_deleted: { kind: "ok", text: "Template deleted; its key is free again." },
  no_org: {
    kind: "error",
    text: "You are signed in but not a member of any org. Ask an org's owner to invite you.",
  },
};
