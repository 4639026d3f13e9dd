// A real SMTP receiver (the smtp-server package) on 127.0.0.1 and a free port, keeping every message it accepts,
// for tests of mail the service sends. Plain SMTP (the app is configured with SVC_SMTP_TLS=none).
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The raw message with quoted-printable soft breaks undone, for searching links and text. */
  text: string;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  /** SVC_SMTP_* variables pointing at this receiver. */
  env: Record<string, string>;
  /** Waits until a mail to `to` (and matching `subject`, if given) arrived; returns it. */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  /** Makes the next `n` messages fail with this SMTP reply code (e.g. 451 transient, 550 permanent). */
  refuseNext(n: number, code: number): void;
  close(): Promise<void>;
}

const decodeQp = (s: string) =>
  s
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));

export async function smtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  let refuse = { n: 0, code: 0 };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (refuse.n > 0) {
          refuse.n--;
          const err = new Error("refused by the test") as Error & { responseCode: number };
          err.responseCode = refuse.code;
          return callback(err);
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? "";
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
          text: decodeQp(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    mails,
    env: {
      SVC_SMTP_HOST: "127.0.0.1",
      SVC_SMTP_PORT: String(port),
      SVC_SMTP_TLS: "none",
      SVC_SMTP_FROM: "svc <svc@example.test>",
    },
    async waitFor(to, subject, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const m = mails.find((x) => x.to.includes(to) && (!subject || subject.test(x.subject)));
        if (m) return m;
        if (Date.now() > until) throw new Error(`no mail to ${to} ${subject ?? ""} within ${timeoutMs} ms`);
        await Bun.sleep(20);
      }
    },
    refuseNext(n, code) {
      refuse = { n, code };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
