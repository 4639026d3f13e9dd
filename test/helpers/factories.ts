// Ready-made tenants for tests, built through the same domain functions the admin commands use.
import { randomBytes } from "node:crypto";
import type { App } from "../../src/app/context.ts";
import { adminActor } from "../../src/domain/actor.ts";
import { bootstrap } from "../../src/domain/bootstrap/service.ts";
import { createApiKey } from "../../src/domain/identity/api-keys/service.ts";
import { issueUserToken } from "../../src/domain/identity/auth/user-tokens.ts";
import { addMember } from "../../src/domain/identity/members/service.ts";
import { ADMIN_SCOPES, INTEGRATION_SCOPES, scopesOfRole } from "../../src/domain/scopes.ts";

export interface Tenant {
  orgId: string;
  userId: string;
  email: string;
  brandId: string;
  brandSlug: string;
  /** Full-access keys (all integration scopes plus every administrative scope). */
  testKey: string;
  liveKey: string;
}

export const ADMIN: string[] = [...ADMIN_SCOPES];
export const INTEGRATION: string[] = [...INTEGRATION_SCOPES];

/** An org with an owner, a brand, and a full test and live key. */
export async function tenant(app: App, name = `Org ${randomBytes(3).toString("hex")}`): Promise<Tenant> {
  const email = `owner-${randomBytes(4).toString("hex")}@example.com`;
  const b = await bootstrap(app, {
    email,
    org: name,
    brand: `${name} Brand`,
    password: "correct horse battery staple",
  });
  const testKey = await key(app, b.org.id, { name: "test full", scopes: [...INTEGRATION, ...ADMIN] });
  const liveKey = await key(app, b.org.id, { name: "live full", scopes: [...INTEGRATION, ...ADMIN] }, true);
  return {
    orgId: b.org.id,
    userId: b.user.id,
    email,
    brandId: b.brand.id,
    brandSlug: b.brand.slug,
    testKey,
    liveKey,
  };
}

/** Creates a key as the operator would (`svc admin apikeys create`) and returns its secret. */
export async function key(
  app: App,
  orgId: string,
  input: Record<string, unknown>,
  livemode = false,
): Promise<string> {
  const k = await createApiKey(
    app,
    adminActor(orgId, "apikeys create", scopesOfRole("owner"), livemode),
    input,
  );
  return k.secret!;
}

/** A CLI user token for a person (as the device sign-in would issue it); returns its secret and ID. */
export async function userToken(
  app: App,
  userId: string,
  opts: { livemode?: boolean; viaSso?: boolean; name?: string } = {},
): Promise<{ id: string; secret: string }> {
  return app.db.transaction().execute((tx) =>
    issueUserToken(tx, app, {
      userId,
      name: opts.name ?? "laptop",
      livemode: opts.livemode ?? false,
      viaSso: opts.viaSso ?? false,
    }),
  );
}

/** Adds a person to an org as the operator would (`svc admin members add`); returns the user ID. */
export async function member(app: App, orgId: string, email: string, role: string): Promise<string> {
  const r = await addMember(app, adminActor(orgId, "members add", scopesOfRole("owner")), {
    email,
    role,
    password: "correct horse battery staple",
  });
  return r.member.id;
}
