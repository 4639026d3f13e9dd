// Where an adapter reaches its network: the documented origin, unless SVC_PROVIDER_ORIGINS points it elsewhere
// (tests against local stand-ins, an operator's proxy). `name` may carry a suffix for a second origin of one
// network, for example `bluesky.appview`.
import type { App } from "../../app/context.ts";

export function providerOrigin(app: App, name: string, fallback: string): string {
  return app.config.providerOrigins[name] ?? fallback;
}
