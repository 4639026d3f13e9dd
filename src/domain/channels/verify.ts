// Checking a live channel's credentials with its network before it is saved (connect, reconnect) and every day
// after (`channels.check`). The network is asked outside any transaction: a slow network never holds one.
import type { App } from "../../app/context.ts";
import { invalid, problem, ServiceError } from "../../lib/errors.ts";
import type { ConnectedAccount, ConnectOutcome } from "../../platforms/adapter.ts";
import { adapterFor } from "../../platforms/adapter-registry.ts";
import type { PlatformRules } from "../../platforms/types.ts";
import type { SplitFields } from "./fields.ts";

/** What the network said about the credentials, and what to keep in place of what was given. */
export interface Verified {
  account: ConnectedAccount;
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

export const CONNECT_TIMEOUT_MS = 30_000;

/** Asks the provider's adapter; an adapter that cannot throw is treated as unavailable. */
export async function askNetwork(
  app: App,
  provider: string,
  livemode: boolean,
  fields: SplitFields,
): Promise<ConnectOutcome | null> {
  const adapter = adapterFor(provider);
  if (!adapter?.connect) return null;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CONNECT_TIMEOUT_MS);
  try {
    return await adapter.connect(app, {
      livemode,
      settings: fields.settings,
      secrets: fields.secrets,
      signal: controller.signal,
    });
  } catch (e) {
    return { kind: "unavailable", message: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Connecting or reconnecting: the credentials must be accepted (422 `connect_failed` with the network's reason),
 * and the network must answer (503 `provider_unavailable`: nothing is saved, try again). Null when the provider's
 * adapter checks nothing (the sandbox, networks without an adapter yet).
 */
export async function verifyFields(
  app: App,
  rules: PlatformRules,
  livemode: boolean,
  fields: SplitFields,
): Promise<Verified | null> {
  const outcome = await askNetwork(app, rules.provider, livemode, fields);
  if (outcome === null) return null;
  if (outcome.kind === "rejected")
    throw invalid([
      problem("connect_failed", `${rules.name} refused these credentials: ${outcome.message}`, "fields", {
        provider: rules.provider,
        reason: outcome.message,
      }),
    ]);
  if (outcome.kind === "unavailable")
    throw new ServiceError(
      503,
      "provider_unavailable",
      `${rules.name} could not be reached to check the credentials; nothing was saved. Try again.`,
      { detail: { provider: rules.provider, reason: outcome.message }, headers: { "retry-after": "30" } },
    );
  return {
    account: outcome.account,
    settings: outcome.settings ?? fields.settings,
    secrets: outcome.secrets ?? fields.secrets,
  };
}
