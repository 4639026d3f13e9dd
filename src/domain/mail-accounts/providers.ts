// GET /v1/mail_providers: the providers a mail account can be connected to, with the fields each takes.
import { MAIL_PROVIDERS } from "../../platforms/mail/registry.ts";
import { type Actor, requireScope } from "../actor.ts";

export function listMailProviders(actor: Actor) {
  requireScope(actor, "channels:read");
  const data = MAIL_PROVIDERS.map((p) => ({
    provider: p.provider,
    object: "mail_provider" as const,
    name: p.name,
    livemode: p.mode === "live",
    available: (p.mode === "live") === actor.livemode,
    fields: p.fields,
  }));
  return { object: "list" as const, data, has_more: false, url: "/v1/mail_providers" };
}
