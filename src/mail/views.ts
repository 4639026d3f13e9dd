// Email bodies: plain text plus a simple HTML part. Every value put into HTML is escaped, so a name holding markup
// arrives as text.
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export interface MailView {
  subject: string;
  text: string;
  html: string;
}

/** A message of paragraphs and an optional link button; `paragraphs` are plain text. */
export function mailView(
  subject: string,
  paragraphs: string[],
  link?: { href: string; label: string },
): MailView {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.href}`] : [])].join("\n\n");
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;color:#1a1a1a;max-width:560px">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link
      ? [`<p><a href="${escapeHtml(link.href)}" style="color:#0b57d0">${escapeHtml(link.label)}</a></p>`]
      : []),
    "</body></html>",
  ].join("\n");
  return { subject, text: `${text}\n`, html };
}
