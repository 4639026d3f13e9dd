// Email bodies: plain text plus an HTML part rendered from views/mail.tsx, which escapes every value, so a name
// holding markup arrives as text.
import { MailBody, type MailLink } from "../../views/mail.tsx";

export interface MailView {
  subject: string;
  text: string;
  html: string;
}

/** A message of paragraphs and an optional link button; `paragraphs` are plain text. */
export function mailView(subject: string, paragraphs: string[], link?: MailLink): MailView {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.href}`] : [])].join("\n\n");
  const html = `<!doctype html>${MailBody({ paragraphs, link }).toString()}`;
  return { subject, text: `${text}\n`, html };
}
