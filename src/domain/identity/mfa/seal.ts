// A person's TOTP secret belongs to no org, so it is sealed with the master key itself (not an org's data key),
// bound to its table, row and column like every sealed value.
import type { App } from "../../../app/context.ts";
import { keysUnavailable } from "../../../crypto/keyring.ts";

const aad = (userId: string) => `svc:seal:user_totp:${userId}:secret`;

export function sealForUser(app: App, userId: string, plaintext: string): string {
  const master = app.keys.master;
  if (!master) throw keysUnavailable("no master key is configured (SVC_MASTER_KEYS)");
  const { keyId, wrapped } = master.wrap(Buffer.from(plaintext), aad(userId));
  return `${keyId}:${wrapped}`;
}

export function openForUser(app: App, userId: string, sealed: string): string {
  const master = app.keys.master;
  if (!master) throw keysUnavailable("no master key is configured (SVC_MASTER_KEYS)");
  const i = sealed.indexOf(":");
  return master.unwrap(sealed.slice(0, i), sealed.slice(i + 1), aad(userId)).toString("utf8");
}
