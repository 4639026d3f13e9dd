// /api-keys: the org's keys in the session's mode, through the api-keys domain functions as the member, with the
// session's password confirmation time for sudo mode.

import { ApiKeysPage, type KeysProps } from "../../../views/api-keys.tsx";
import { listBrands } from "../../domain/brands/service.ts";
import {
  createApiKey,
  listApiKeys,
  revokeApiKey,
  rollApiKey,
} from "../../domain/identity/api-keys/service.ts";
import { isRecentAuth } from "../../domain/identity/auth/sudo.ts";
import { ADMIN_SCOPES, ALL_SCOPES, INTEGRATION_SCOPES, scopesOfRole } from "../../domain/scopes.ts";
import { ServiceError } from "../../lib/errors.ts";
import { scopesInUse } from "../api/v1/index.ts";
import { fieldErrors, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const dashboardAuth = (w: Web) => ({ confirmedAt: w.session!.confirmed_at });

async function page(
  w: Web,
  extra: Partial<KeysProps> = {},
  status = 200,
  headers: Record<string, string> = {},
) {
  const m = w.member!;
  const [keys, brands] = await Promise.all([
    listApiKeys(w.app, m.actor, { limit: "100" }, dashboardAuth(w)),
    listBrands(w.app, m.actor, { limit: "100" }),
  ]);
  const held = scopesOfRole(m.org.role);
  return render(
    w,
    <ApiKeysPage
      f={frame(w, "API keys", "api_keys")}
      sudo={isRecentAuth(w.app, w.session!.confirmed_at)}
      keys={keys.data}
      brands={brands.data}
      grantable={{
        integration: INTEGRATION_SCOPES.filter((s) => held.has(s) && scopesInUse.has(s)),
        admin: ADMIN_SCOPES.filter((s) => held.has(s) && scopesInUse.has(s)),
        coming: ALL_SCOPES.filter((s) => held.has(s) && !scopesInUse.has(s)),
      }}
      created={null}
      form={{ name: "", scopes: [], brand: "", expires: "" }}
      now={w.app.clock.now()}
      {...extra}
    />,
    status,
    headers,
  );
}

async function create(w: Web) {
  const form = {
    name: w.form.get("name") ?? "",
    scopes: w.form.getAll("scopes"),
    brand: w.form.get("brand") ?? "",
    expires: w.form.get("expires_at") ?? "",
  };
  try {
    if (form.expires && !/^\d{4}-\d{2}-\d{2}$/.test(form.expires))
      throw new ServiceError(400, "parameter_invalid", "Pick a date.", { param: "expires_at" });
    const key = await createApiKey(
      w.app,
      w.member!.actor,
      {
        name: form.name,
        scopes: form.scopes,
        brand: form.brand || null,
        expires_at: form.expires ? `${form.expires}T23:59:59Z` : null,
      },
      dashboardAuth(w),
    );
    return page(w, { created: { name: key.name, secret: key.secret!, rolled: false } }, 201);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, { form, errors: fieldErrors(e) }, e.status, e.headers ?? {});
  }
}

async function roll(w: Web) {
  try {
    const key = await rollApiKey(
      w.app,
      w.member!.actor,
      w.params.id ?? "",
      { overlap_hours: Number(w.form.get("overlap_hours") ?? "24") },
      dashboardAuth(w),
    );
    return page(w, { created: { name: key.name, secret: key.secret!, rolled: true } });
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, { errors: fieldErrors(e) }, e.status, e.headers ?? {});
  }
}

async function revoke(w: Web) {
  await revokeApiKey(w.app, w.member!.actor, w.params.id ?? "", dashboardAuth(w));
  setFlash(w, "key_revoked");
  return redirect(w, "/api-keys");
}

export const apiKeyRoutes: WebRoute[] = [
  {
    method: "GET",
    path: "/api-keys",
    access: "member",
    org: "read",
    needs: "keys:write",
    handler: (w) => page(w),
  },
  { method: "POST", path: "/api-keys", access: "member", org: "write", needs: "keys:write", handler: create },
  {
    method: "POST",
    path: "/api-keys/:id/roll",
    access: "member",
    org: "write",
    needs: "keys:write",
    handler: roll,
  },
  {
    method: "POST",
    path: "/api-keys/:id/revoke",
    access: "member",
    org: "write",
    needs: "keys:write",
    handler: revoke,
  },
];
