// The email an issue becomes (HTML and text), as recipients will see it: the body in Markdown rendered by
// markdown-it with raw HTML off (a <script> or an onclick in the body shows as text, never runs) and its own
// link check (javascript:, vbscript:, file: and data: links stay text), inside a table layout with inline styles
// that mail clients keep, themed by the brand (logo, accent, footer, postal address), ending with the provider's
// unsubscribe placeholder. Links to the brand's UTM domains are tagged (reference §5): utm_source = provider,
// utm_medium = email, utm_campaign = issue ID, utm_content = link-N (N counts every link of the body from 1).
// Images written as ![alt](media_…) are the brand's library images, linked by a signed link that never expires.

import type { Token } from "markdown-it";
import MarkdownIt from "markdown-it";
import type { EmailTheme } from "../brands/email-theme.ts";

export interface RenderInput {
  subject: string;
  preview_text: string;
  body: string;
  theme: EmailTheme;
  brandName: string;
  /** The brand's utm_domains. */
  utmDomains: readonly string[];
  /** The mail provider (utm_source) and its unsubscribe placeholder. */
  provider: string;
  unsubscribe: string;
  /** The issue ID (a preview uses an all-zero ID of the same length). */
  issueId: string;
  /** The link a library image is shown by; null when the medium is not the brand's image. */
  imageUrl(mediaId: string): string | null;
}

export interface Rendered {
  html: string;
  text: string;
  links: number;
  images: string[];
  /** Library images the body names that are not the brand's. */
  unknownImages: string[];
}

export const PREVIEW_ISSUE_ID = `nl_${"0".repeat(26)}`;
export const MEDIA_REF = /^media_[0-9a-z]{26}$/;

// linkify (bare URLs becoming links) is off: it was two thirds of the render time of a 100,000-byte issue
// (docs/performance.md). A link is written [text](url) or <url>.
const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });
// Links are percent-encoded as written, without markdown-it's URL parse and punycode of every host (which cost
// most of the render time of a link-heavy issue); validateLink still refuses script-running schemes afterwards,
// since markdown-it checks the normalised link.
md.normalizeLink = (url: string) => md.utils.lib.mdurl.encode(url);
const esc = md.utils.escapeHtml;

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const TEXT_COLOUR = "#1f2937";
const DEFAULT_ACCENT = "#1d4ed8";

function shouldTag(href: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return false;
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return false;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return false;
  const host = u.hostname.toLowerCase().replace(/\.$/, "");
  if (!domains.some((d) => host === d || host.endsWith(`.${d}`))) return false;
  for (const k of u.searchParams.keys()) if (k.toLowerCase().startsWith("utm_")) return false;
  return true;
}

function tagged(href: string, input: RenderInput, n: number): string {
  const tags = [
    ["utm_source", input.provider],
    ["utm_medium", "email"],
    ["utm_campaign", input.issueId],
    ["utm_content", `link-${n}`],
  ]
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join("&");
  const hash = href.indexOf("#");
  const base = hash < 0 ? href : href.slice(0, hash);
  const fragment = hash < 0 ? "" : href.slice(hash);
  const joiner = !base.includes("?") ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&";
  return `${base}${joiner}${tags}${fragment}`;
}

/** Styles, link tags and image links set on the tokens, so the HTML and the text say the same. */
function prepare(tokens: Token[], input: RenderInput, out: Rendered, accent: string): void {
  const walk = (list: Token[]) => {
    for (const t of list) {
      if (t.children) walk(t.children);
      if (t.type === "link_open") {
        out.links++;
        const href = String(t.attrGet("href") ?? "");
        if (shouldTag(href, input.utmDomains)) t.attrSet("href", tagged(href, input, out.links));
        t.attrSet("style", `color:${accent};text-decoration:underline`);
      } else if (t.type === "image") {
        const src = String(t.attrGet("src") ?? "");
        if (MEDIA_REF.test(src)) {
          const url = input.imageUrl(src);
          if (url === null) out.unknownImages.push(src);
          else {
            out.images.push(src);
            t.attrSet("src", url);
          }
        }
        t.attrSet("style", "max-width:100%;height:auto;border:0;display:block");
      } else if (t.type === "heading_open") {
        t.attrSet("style", `color:${accent};margin:24px 0 12px;line-height:1.25`);
      } else if (t.type === "paragraph_open") {
        t.attrSet("style", "margin:0 0 16px");
      } else if (t.type === "blockquote_open") {
        t.attrSet("style", `margin:0 0 16px;padding-left:12px;border-left:3px solid ${accent};color:#4b5563`);
      } else if (t.type === "code_inline" || t.type === "fence" || t.type === "code_block") {
        t.attrSet("style", "font-family:Menlo,Consolas,monospace;font-size:14px;background:#f3f4f6");
      }
    }
  };
  walk(tokens);
}

/** The text version, from the same tokens: links as "text (url)", images as their alt text. */
function plainText(tokens: Token[]): string {
  const lines: string[] = [];
  let line = "";
  let listDepth = 0;
  const inline = (children: Token[]) => {
    let s = "";
    let href: string | null = null;
    let linkText = "";
    for (const c of children) {
      if (c.type === "link_open") {
        href = String(c.attrGet("href") ?? "");
        linkText = "";
      } else if (c.type === "link_close") {
        s += href && href !== linkText ? `${linkText} (${href})` : linkText;
        href = null;
      } else {
        const piece =
          c.type === "text" || c.type === "code_inline"
            ? c.content
            : c.type === "softbreak" || c.type === "hardbreak"
              ? "\n"
              : c.type === "image"
                ? `[${c.content || "image"}]`
                : "";
        if (href !== null) linkText += piece;
        else s += piece;
      }
    }
    return s;
  };
  for (const t of tokens) {
    if (t.type === "bullet_list_open" || t.type === "ordered_list_open") listDepth++;
    else if (t.type === "bullet_list_close" || t.type === "ordered_list_close") listDepth--;
    else if (t.type === "list_item_open") line = `${"  ".repeat(Math.max(0, listDepth - 1))}- `;
    else if (t.type === "inline") line += inline(t.children ?? []);
    else if (t.type === "fence" || t.type === "code_block") lines.push(t.content.trimEnd(), "");
    else if (t.type === "hr") lines.push("----", "");
    else if (t.type === "paragraph_close" || t.type === "heading_close") {
      lines.push(line, ...(listDepth > 0 ? [] : [""]));
      line = "";
    }
  }
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function renderIssue(input: RenderInput): Rendered {
  const out: Rendered = { html: "", text: "", links: 0, images: [], unknownImages: [] };
  const accent = input.theme.accent || DEFAULT_ACCENT;
  const env = {};
  const tokens = md.parse(input.body, env);
  prepare(tokens, input, out, accent);
  const body = md.renderer.render(tokens, md.options, env);
  const logo = input.theme.logo ? input.imageUrl(input.theme.logo) : null;
  const address = input.theme.postal_address
    ? input.theme.postal_address.split(/\r?\n/).map(esc).join("<br>")
    : "";
  const unsub = esc(input.unsubscribe);
  out.html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting"><title>${esc(input.subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5">
<div style="display:none;max-height:0;overflow:hidden;mso-hide:all">${esc(input.preview_text)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f4f4f5"><tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:6px">
${logo ? `<tr><td style="padding:24px 24px 0"><img src="${esc(logo)}" alt="${esc(input.brandName)}" width="160" style="max-width:160px;height:auto;border:0;display:block"></td></tr>\n` : ""}<tr><td style="padding:24px;${FONT};font-size:16px;line-height:1.5;color:${TEXT_COLOUR};word-wrap:break-word">
${body}</td></tr>
<tr><td style="padding:16px 24px 24px;border-top:1px solid #e5e7eb;${FONT};font-size:12px;line-height:1.5;color:#6b7280">
${input.theme.footer ? `<p style="margin:0 0 8px">${esc(input.theme.footer)}</p>` : ""}${address ? `<p style="margin:0 0 8px">${address}</p>` : ""}<p style="margin:0"><a href="${unsub}" style="color:#6b7280;text-decoration:underline">Unsubscribe</a></p>
</td></tr></table></td></tr></table></body></html>
`;
  const footer = [input.theme.footer, input.theme.postal_address, `Unsubscribe: ${input.unsubscribe}`]
    .filter(Boolean)
    .join("\n\n");
  out.text = `${plainText(tokens)}\n\n----\n${footer}\n`;
  return out;
}
