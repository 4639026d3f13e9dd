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
}
