// The URL rules of a webhook endpoint (interface.md Resources): absolute http(s), no credentials, https in live
// mode. An IP literal outside what SVC_ALLOW_PRIVATE_WEBHOOKS allows is refused now for a quick answer; names are
// not resolved here: the guarded client checks every resolved address when it connects (ARCHITECTURE rule 7).
import type { App } from "../../app/context.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { OutboundError, parseOutboundUrl } from "../../net/guarded.ts";
import { checkLiteralHost } from "../../net/lookup.ts";
import { webhookAllow } from "./allow.ts";

export function checkEndpointUrl(app: App, livemode: boolean, input: string): string {
  let url: URL;
  try {
    url = parseOutboundUrl(input);
    checkLiteralHost(url, webhookAllow(app));
  } catch (e) {
    if (!(e instanceof OutboundError)) throw e;
    const why =
      e.kind === "blocked_address"
        ? "url points at a non-public address that this server does not allow."
        : `url must be an absolute http or https URL without credentials (${e.message}).`;
    throw invalid([problem("url_invalid", why, "url")]);
  }
  if (livemode && url.protocol !== "https:") {
    throw invalid([problem("url_insecure", "Live mode endpoints must use https.", "url")]);
  }
  return url.href;
}
