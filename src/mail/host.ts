// What mail needs of the App, stated here so mail sits below it: the database (the outbox), the clock, a log
// and the SMTP settings. The App gives all of it.
import type { Db } from "../db/index.ts";
import type { Clock } from "../lib/clock.ts";

export interface SmtpSettings {
  host: string;
  from: string;
  port: number;
  tls: "starttls" | "tls" | "none";
  username: string | null;
  password: string | null;
}

export interface MailHost {
  db: Db;
  clock: Clock;
  log: { warn(msg: string, fields?: Record<string, unknown>): void };
  config: { smtp: SmtpSettings | null };
}
