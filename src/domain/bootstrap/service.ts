// `svc admin bootstrap`: the first person, org and brand (and, once channels exist, a sandbox channel).
import type { App } from "../../app/context.ts";
import { newId } from "../../lib/ids.ts";
import { adminActor } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { presentBrand } from "../brands/present.ts";
import { BrandCreate, DEFAULT_SLOTS } from "../brands/schema.ts";
import { slugify } from "../brands/service.ts";
import { createUser, findUserByEmail } from "../identity/users/service.ts";
import { insertOrg, presentOrg } from "../orgs/service.ts";
import { scopesOfRole } from "../scopes.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { afterBootstrapHooks } from "./hooks.ts";

export interface BootstrapInput {
  email: string;
  org: string;
  brand?: string | undefined;
  name?: string | null | undefined;
  timezone?: string | undefined;
  sandbox?: boolean | undefined;
  password?: string | null | undefined;
}

export async function bootstrap(app: App, input: BootstrapInput) {
  const brandInput = parse(BrandCreate, {
    name: input.brand ?? input.org,
    timezone: input.timezone ?? "UTC",
  });
  return inTx(app, async (tx) => {
    const existing = await findUserByEmail(tx, input.email);
    let password: string | null = null;
    let user = existing;
    if (!user)
      ({ user, password } = await createUser(tx, app, {
        email: input.email,
        name: input.name ?? null,
        password: input.password ?? null,
      }));
    const org = await insertOrg(tx, app, input.org);
    const now = app.clock.now();
    await tx
      .insertInto("members")
      .values({ org_id: org.id, user_id: user.id, role: "owner", created_at: now })
      .execute();
    const brand = {
      id: newId("brand", now),
      org_id: org.id,
      name: brandInput.name,
      slug: slugify(brandInput.name),
      timezone: brandInput.timezone ?? "UTC",
      approval_policy: "none",
      utm_domains: "[]",
      slots: JSON.stringify(DEFAULT_SLOTS),
      email_theme: null,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto("brands").values(brand).execute();
    const actor = adminActor(org.id, "bootstrap", scopesOfRole("owner"));
    await audit(tx, app, actor, {
      action: "org.bootstrap",
      target: org.id,
      detail: { email: user.email, brand: brand.id },
    });
    const extras: Record<string, unknown> = {};
    if (input.sandbox !== false)
      for (const hook of afterBootstrapHooks) Object.assign(extras, await hook(tx, app, actor, brand.id));
    return {
      org: presentOrg(org),
      user: { id: user.id, email: user.email },
      password,
      brand: presentBrand(brand),
      ...extras,
    };
  });
}
