// What svc asks of a mail provider (interface.md "Newsletters"): check the credentials it is given, and list the
// audiences (lists) that can receive an issue. The provider keeps every subscriber; svc never sees an address.
import type { App } from "../../app/context.ts";
import type { ConnectField } from "../types.ts";

export interface MailCredentials {
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

export interface MailAudience {
  id: string;
  name: string;
  /** Subscribers the provider counts in it, when it says. */
  size: number | null;
}

/** What the provider said about the credentials. */
export type MailCheck =
  | { kind: "ok"; account: { ref: string; name: string } }
  /** The provider refused the credentials (revoked, wrong key). */
  | { kind: "rejected"; message: string }
  /** No usable answer (network, 5xx): nothing can be concluded; try again. */
  | { kind: "unavailable"; message: string };

export type MailAnswer<T> =
  | { kind: "ok"; value: T }
  | { kind: "rejected"; message: string }
  | { kind: "unavailable"; message: string };

/**
 * A create whose outcome is not known: the request may have been read and acted on (a cut connection, a
 * timeout). The campaign is looked for by its marker before anything is created again.
 */
export type CreateAnswer = MailAnswer<{ campaignId: string }> | { kind: "unsure"; message: string };

/** One delivery of an issue, as the provider's scheduled campaign. */
export interface CampaignInput {
  /** The delivery's ID: kept with the campaign (Brevo: its `tag`) so it can be found after an unknown outcome. */
  marker: string;
  name: string;
  subject: string;
  previewText: string;
  html: string;
  fromName: string;
  fromEmail: string;
  replyTo: string | null;
  audiences: readonly string[];
  sendAt: number;
}

/** Where the sandbox keeps the campaigns it was given (a table the domain owns; adapters own none). */
export interface SandboxCampaigns {
  create(accountId: string, c: CampaignInput): Promise<string>;
  findByMarker(accountId: string, marker: string): Promise<string | null>;
  update(
    accountId: string,
    campaignId: string,
    set: { sendAt?: number; status?: "canceled" },
  ): Promise<boolean>;
  /** The campaign's audiences, or null when the sandbox has no such campaign. */
  audiences(accountId: string, campaignId: string): Promise<string[] | null>;
}

export interface MailContext {
  accountId: string;
  sandbox: SandboxCampaigns;
}

export interface MailProvider {
  provider: string;
  name: string;
  /** The sandbox takes only test mode; real providers only live mode (test mode never reaches real accounts). */
  mode: "test" | "live";
  fields: ConnectField[];
  /** What the provider replaces by each recipient's own unsubscribe link. */
  unsubscribe: string;
  check(app: App, creds: MailCredentials): Promise<MailCheck>;
  audiences(app: App, creds: MailCredentials): Promise<MailAnswer<MailAudience[]>>;
  createCampaign(app: App, creds: MailCredentials, c: CampaignInput, ctx: MailContext): Promise<CreateAnswer>;
  /** The campaign made for this marker, or null when the provider has none. */
  findCampaign(
    app: App,
    creds: MailCredentials,
    marker: string,
    ctx: MailContext,
  ): Promise<MailAnswer<string | null>>;
  moveCampaign(
    app: App,
    creds: MailCredentials,
    campaignId: string,
    sendAt: number,
    ctx: MailContext,
  ): Promise<MailAnswer<true>>;
  cancelCampaign(
    app: App,
    creds: MailCredentials,
    campaignId: string,
    ctx: MailContext,
  ): Promise<MailAnswer<true>>;
  /** The campaign's counts so far. */
  results(
    app: App,
    creds: MailCredentials,
    campaignId: string,
    ctx: MailContext,
  ): Promise<MailAnswer<MailResults>>;
  /** A test send through the provider; absent for the sandbox, whose tests go out by the install's own SMTP. */
  sendTest?(app: App, creds: MailCredentials, msg: TestMessage): Promise<MailAnswer<true>>;
}

/** What a provider reports of a sent campaign: counts only, never who. */
export interface MailResults {
  sent: number;
  opens: number;
  clicks: number;
  unsubscribes: number;
  bounces: number;
}

export interface TestMessage {
  to: readonly string[];
  subject: string;
  html: string;
  text: string;
  fromName: string;
  fromEmail: string;
  replyTo: string | null;
}
