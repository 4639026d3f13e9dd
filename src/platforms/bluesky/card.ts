// The link card Bluesky shows under a post with a link (app.bsky.embed.external): the page's title and
// description, read from the page itself through the guarded client (a link is an address a tenant chose). A page
// that cannot be read still gets a card with its host as the title; no thumbnail is uploaded.
import type { App } from "../../app/context.ts";
import { webhooksAllow } from "../../net/allow.ts";
import { guardedRequest } from "../../net/guarded.ts";

export interface ExternalEmbed {
  $type: "app.bsky.embed.external";
  external: { uri: string; title: string; description: string };
}

const decodeEntities = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

function meta(html: string, name: string): string | null {
  const re = new RegExp(
    `<meta[^>]+(?:property|name)=["']${name}["'][^>]*content=["']([^"']*)["']|<meta[^>]+content=["']([^"']*)["'][^>]*(?:property|name)=["']${name}["']`,
    "i",
  );
  const m = re.exec(html);
  const v = m?.[1] ?? m?.[2];
  return v === undefined ? null : decodeEntities(v).trim();
}

/** Title and description of the page (og: tags, else <title>), cut to what the card shows. */
export function cardFromHtml(uri: string, html: string): ExternalEmbed {
  const title =
    meta(html, "og:title") ??
    (/<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]
      ? decodeEntities(/<title[^>]*>([^<]*)<\/title>/i.exec(html)![1]!).trim()
      : null) ??
    new URL(uri).hostname;
  const description = meta(html, "og:description") ?? meta(html, "description") ?? "";
  return {
    $type: "app.bsky.embed.external",
    external: { uri, title: title.slice(0, 300), description: description.slice(0, 1000) },
  };
}

export async function linkCard(app: App, uri: string, signal: AbortSignal): Promise<ExternalEmbed> {
  try {
    const res = await guardedRequest({
      url: uri,
      headers: { accept: "text/html" },
      allow: webhooksAllow(app.config),
      followRedirects: true,
      timeoutMs: 5000,
      maxResponseBytes: 256 * 1024,
      signal,
    });
    const type = res.headers.get("content-type") ?? "";
    if (res.status >= 200 && res.status < 300 && /html/i.test(type))
      return cardFromHtml(uri, new TextDecoder().decode(res.body));
  } catch {
    // An unreadable page still gets a plain card.
  }
  return cardFromHtml(uri, "");
}
