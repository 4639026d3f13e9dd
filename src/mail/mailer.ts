// Outgoing email over SVC_SMTP_* with nodemailer. Without SVC_SMTP_HOST there is no mailer: operations that must
// send answer 503 `mail_unavailable` and nothing pretends to have sent.
import { ServiceError } from "../lib/errors.ts";
import { once } from "../lib/once.ts";
import type { MailHost } from "./host.ts";

// nodemailer loads with the first message sent, not at start-up (about 30 ms and 10 MiB).
const loadNodemailer = once(() => import("nodemailer"));

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post on notification emails). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

/** A refusal the SMTP server called permanent (5xx): retrying will not help. */
export const isPermanentSmtpError = (e: unknown) => {
  const code = (e as { responseCode?: number })?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
};

const mailers = new WeakMap<MailHost, Mailer & { close(): void }>();

/** Closes the App's pooled SMTP connections, if it opened any (App.close). */
export function closeMailer(app: MailHost): void {
  mailers.get(app)?.close();
}

/** The App's mailer, or null when no SMTP server is configured. */
export function mailerOf(app: MailHost): Mailer | null {
  const smtp = app.config.smtp;
  if (!smtp) return null;
  let m = mailers.get(app);
  if (!m) {
    const transport = once(async () =>
      (await loadNodemailer()).default.createTransport({
        host: smtp.host,
        port: smtp.port,
        // tls: TLS from the first byte (465); starttls: plain, then upgrade, refusing a server that cannot;
        // none: plain text, for a relay on the same host only.
        secure: smtp.tls === "tls",
        requireTLS: smtp.tls === "starttls",
        ignoreTLS: smtp.tls === "none",
        ...(smtp.username ? { auth: { user: smtp.username, pass: smtp.password ?? "" } } : {}),
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
        // One connection kept open and reused: a notification run sends thousands of messages, and a connection
        // per message (TCP, greeting, EHLO, the server's checks) costs more than the message itself. It closes
        // after 20 s idle (socketTimeout) and with the App.
        pool: true,
        maxConnections: 2,
      }),
    );
    let opened = false;
    m = {
      async send(msg) {
        opened = true;
        await (await transport()).sendMail({
          from: smtp.from,
          to: msg.to,
          subject: msg.subject,
          text: msg.text,
          html: msg.html,
          ...(msg.headers ? { headers: msg.headers } : {}),
        });
      },
      close() {
        if (opened) void transport().then((t) => t.close());
      },
    };
    mailers.set(app, m);
  }
  return m;
}

export const mailUnavailable = () =>
  new ServiceError(
    503,
    "mail_unavailable",
    "Email is off on this server (no SVC_SMTP_HOST); nothing was sent.",
  );

/** The mailer, or 503 `mail_unavailable`. */
export function requireMailer(app: MailHost): Mailer {
  const m = mailerOf(app);
  if (!m) throw mailUnavailable();
  return m;
}
