// UTM tagging of social links (reference §5 UTM). Only links to the brand's own domains are tagged, and never a
// link that already carries a `utm_` parameter: the author's own tags win. Tagging happens per channel before the
// text is measured, so the length a network is checked against is the length of what it will receive.
import { findLinks } from "../../platforms/text/links.ts";

export interface Utm {
  /** The brand's `utm_domains` (lowercase host names); a link to one of them or a subdomain is tagged. */
  domains: readonly string[];
  /** The template key, or null for a post without a template (then utm_campaign is left out). */
  campaign: string | null;
  /** The post ID; a preview has none yet and uses PREVIEW_POST_ID, which is as long as a real one. */
  postId: string;
}

/** The text with every link to one of the domains tagged with utm_source=<provider>, medium, campaign, content. */
export function tagLinks(text: string, provider: string, utm: Utm): string {
  if (utm.domains.length === 0) return text;
  const links = findLinks(text);
  if (links.length === 0) return text;
  const tags = utmQuery(provider, utm);
  let out = "";
  let at = 0;
  for (const link of links) {
    if (!shouldTag(link.url, utm.domains)) continue;
    out += text.slice(at, link.start) + withQuery(link.text, tags);
    at = link.end;
  }
  return at === 0 ? text : out + text.slice(at);
}

function utmQuery(provider: string, utm: Utm): string {
  const pairs: [string, string][] = [
    ["utm_source", provider],
    ["utm_medium", "social"],
  ];
  if (utm.campaign !== null) pairs.push(["utm_campaign", utm.campaign]);
  pairs.push(["utm_content", utm.postId]);
  return pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
}

/** The host (as the URL parser reads it, so userinfo and ports do not confuse it) is a domain or beneath one. */
function shouldTag(url: string, domains: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  if (!domains.some((d) => host === d || host.endsWith(`.${d}`))) return false;
  for (const name of parsed.searchParams.keys()) if (name.toLowerCase().startsWith("utm_")) return false;
  return true;
}

/**
 * Adds the tags to the link as written rather than re-serialising a parsed URL, which would punycode the host or
 * percent-encode the path the author typed. The query goes before any `#fragment`; a bare host gets its `/`
 * first, since some networks' link detectors end a link at a `?` straight after the host.
 */
function withQuery(written: string, tags: string): string {
  const hash = written.indexOf("#");
  let base = hash < 0 ? written : written.slice(0, hash);
  const fragment = hash < 0 ? "" : written.slice(hash);
  if (!/[/?]/.test(base.replace(/^https?:\/\//i, ""))) base += "/";
  const joiner = !base.includes("?") ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&";
  return `${base}${joiner}${tags}${fragment}`;
}
