// Every mail provider svc offers (GET /v1/mail_providers), by name.
import { brevoMail } from "./brevo.ts";
import { sandboxMail } from "./sandbox.ts";
import type { MailProvider } from "./types.ts";

export const MAIL_PROVIDERS: readonly MailProvider[] = [sandboxMail, brevoMail];
export const MAIL_PROVIDER_NAMES = MAIL_PROVIDERS.map((p) => p.provider);

export const mailProvider = (name: string): MailProvider | undefined =>
  MAIL_PROVIDERS.find((p) => p.provider === name);
