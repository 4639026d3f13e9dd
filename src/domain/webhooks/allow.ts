// SVC_ALLOW_PRIVATE_WEBHOOKS, parsed once per App (the config keeps the raw text).
import type { App } from "../../app/context.ts";
import { type AllowSetting, parseAllowSetting } from "../../net/allow.ts";

const cache = new WeakMap<App, AllowSetting>();

export function webhookAllow(app: App): AllowSetting {
  let allow = cache.get(app);
  if (!allow) {
    allow = parseAllowSetting(app.config.allowPrivateWebhooks ?? undefined, "SVC_ALLOW_PRIVATE_WEBHOOKS");
    cache.set(app, allow);
  }
  return allow;
}
