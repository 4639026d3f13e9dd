// The URL rules of a webhook endpoint (interface.md Resources): absolute http(s), no credentials, https in live
// mode, and an address SVC_ALLOW_PRIVATE_WEBHOOKS allows. The host is resolved and judged now exactly as the
// delivery will judge it (a name that resolves to a loopback or private address is refused like the literal),
// so an endpoint that can never be reached is refused at once instead of failing every delivery for three
// days. The guarded client still checks every resolved address when it connects (ARCHITECTURE rule 7), since
// a name may resolve elsewhere later.
import type { App } from "../../app/context.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { checkOutboundUrl, OutboundError, type Resolver } from "../../net/guarded.ts";
import { systemResolver } from "../../net/lookup.ts";
import { webhookAllow } from "./allow.ts";

/** A slow resolver must not hold the request: past this, the name is kept unjudged, as when it does not resolve. */
const RESOLVE_TIMEOUT_MS = 3000;

const boundedResolver: Resolver = (hostname) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("DNS lookup timed out")), RESOLVE_TIMEOUT_MS);
  });
  return Promise.race([systemResolver(hostname), late]).finally(() => clearTimeout(timer));
};

export async function checkEndpointUrl(app: App, livemode: boolean, input: string): Promise<string> {
  let url: URL;
  try {
    url = await checkOutboundUrl(input, { allow: webhookAllow(app), resolve: boundedResolver });
  } catch (e) {
    if (!(e instanceof OutboundError)) throw e;
    // A name that does not resolve now (DNS down, a name not yet published) cannot be judged: it is kept, and
    // the delivery judges what it resolves to then.
    if (e.kind === "connection" || e.kind === "timeout") url = new URL(input);
    else {
      const why =
        e.kind === "blocked_address"
          ? `url: ${e.message}.`
          : `url must be an absolute http or https URL without credentials (${e.message}).`;
      throw invalid([problem("url_invalid", why, "url")]);
    }
  }
  if (livemode && url.protocol !== "https:") {
    throw invalid([problem("url_insecure", "Live mode endpoints must use https.", "url")]);
  }
  return url.href;
}
