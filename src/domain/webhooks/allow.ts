// SVC_ALLOW_PRIVATE_WEBHOOKS for this App, named so every refusal says which setting would allow the address.
import type { App } from "../../app/context.ts";
import { type AllowSetting, webhooksAllow } from "../../net/allow.ts";

export function webhookAllow(app: App): AllowSetting {
  return webhooksAllow(app.config);
}
