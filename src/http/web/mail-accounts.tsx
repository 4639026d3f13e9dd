// /mail-accounts: the mail accounts of this mode (connect with the provider's fields, delete) and a brand's email
// theme. Thin over the same use cases as /v1/mail_accounts, /v1/mail_providers and /v1/brands/{id}/email_theme,
// loaded on first use.
import type { FieldErrors } from "../../../views/frame.ts";
import {
  type ConnectForm,
  type MaBrand,
  MailAccountsPage,
  type ThemeForm,
} from "../../../views/mail-accounts.tsx";
import { listBrands } from "../../domain/brands/service.ts";
import { listMedia } from "../../domain/media/service.ts";
import { ServiceError } from "../../lib/errors.ts";
import { once } from "../../lib/once.ts";
import { fieldErrors, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const load = {
  list: once(() => import("../../domain/mail-accounts/list.ts")),
  connect: once(() => import("../../domain/mail-accounts/connect.ts")),
  remove: once(() => import("../../domain/mail-accounts/delete.ts")),
  providers: once(() => import("../../domain/mail-accounts/providers.ts")),
  theme: once(() => import("../../domain/brands/email-theme.ts")),
};

/** A problem shown on the page: one the person can act on, or a provider that cannot be reached now (503). */
const shownError = (e: unknown): e is ServiceError =>
  e instanceof ServiceError && e.status !== 404 && (e.status < 500 || e.status === 503);

function errorsOf(e: ServiceError): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(fieldErrors(e))) {
    const key = k.split(".")[0] ?? "";
    out[key] = out[key] ? `${out[key]} ${v}` : v;
  }
  return out;
}

const emptyConnect: ConnectForm = {
  brand: "",
  provider: "",
  from_name: "",
  from_email: "",
  reply_to: "",
  default_audiences: "",
  fields: {},
};

interface Extra {
  form?: ConnectForm;
  errors?: FieldErrors;
  theme?: string;
  themeForm?: ThemeForm;
  themeErrors?: FieldErrors;
}

async function page(w: Web, extra: Extra = {}, status = 200) {
  const actor = w.member!.actor;
  const suspended = w.member!.org.status === "suspended";
  const [accounts, brandList] = suspended
    ? [{ data: [] }, { data: [] }]
    : await Promise.all([
        (await load.list()).listMailAccounts(w.app, actor, { limit: "100" }),
        listBrands(w.app, actor, { limit: "100" }),
      ]);
  const brands: MaBrand[] = brandList.data
    .map((b) => ({ id: b.id, name: b.name, slug: b.slug, email_theme: b.email_theme ?? null }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const wanted = extra.theme ?? w.url.searchParams.get("theme") ?? "";
  const themeBrand = brands.find((b) => b.id === wanted || b.slug === wanted) ?? brands[0] ?? null;
  const t = themeBrand?.email_theme;
  const images = themeBrand
    ? (await listMedia(w.app, actor, { brand: themeBrand.id, limit: "100" })).data
        .filter((m) => m.type.startsWith("image/"))
        .map((m) => ({ id: m.id, label: m.alt || m.filename || m.id }))
    : [];
  return render(
    w,
    <MailAccountsPage
      f={frame(w, "Mail accounts", "mail_accounts")}
      accounts={accounts.data}
      brands={brands}
      providers={(await load.providers()).listMailProviders(actor).data}
      form={extra.form ?? emptyConnect}
      errors={extra.errors}
      themeBrand={themeBrand}
      themeForm={
        extra.themeForm ?? {
          logo: t?.logo ?? "",
          accent: t?.accent ?? "",
          postal_address: t?.postal_address ?? "",
          footer: t?.footer ?? "",
        }
      }
      themeErrors={extra.themeErrors}
      images={images}
    />,
    status,
  );
}

async function connect(w: Web) {
  const f = w.form;
  const provider = f.get("provider") ?? "";
  const fields: Record<string, string> = {};
  const prefix = `field.${provider}.`;
  for (const [k, v] of f) if (k.startsWith(prefix) && v !== "") fields[k.slice(prefix.length)] = v;
  const form: ConnectForm = {
    brand: f.get("brand") ?? "",
    provider,
    from_name: f.get("from_name") ?? "",
    from_email: f.get("from_email") ?? "",
    reply_to: f.get("reply_to") ?? "",
    default_audiences: f.get("default_audiences") ?? "",
    fields,
  };
  const audiences = form.default_audiences
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    await (await load.connect()).connectMailAccount(w.app, w.member!.actor, {
      brand: form.brand,
      provider,
      from_name: form.from_name,
      from_email: form.from_email,
      ...(form.reply_to.trim() ? { reply_to: form.reply_to } : {}),
      ...(audiences.length ? { default_audiences: audiences } : {}),
      fields,
    });
  } catch (e) {
    if (!shownError(e)) throw e;
    return page(w, { form, errors: errorsOf(e) }, e.status);
  }
  setFlash(w, "mail_account_connected");
  return redirect(w, "/mail-accounts");
}

async function remove(w: Web) {
  try {
    await (await load.remove()).deleteMailAccount(w.app, w.member!.actor, w.params.id ?? "");
  } catch (e) {
    if (!shownError(e)) throw e;
    return page(w, { errors: errorsOf(e) }, e.status);
  }
  setFlash(w, "mail_account_deleted");
  return redirect(w, "/mail-accounts");
}

async function theme(w: Web) {
  const f = w.form;
  const brand = w.params.id ?? "";
  const themeForm: ThemeForm = {
    logo: f.get("logo") ?? "",
    accent: f.get("accent") ?? "",
    postal_address: f.get("postal_address") ?? "",
    footer: f.get("footer") ?? "",
  };
  try {
    await (await load.theme()).setEmailTheme(w.app, w.member!.actor, brand, {
      logo: themeForm.logo || null,
      accent: themeForm.accent,
      postal_address: themeForm.postal_address,
      footer: themeForm.footer,
    });
  } catch (e) {
    if (!shownError(e)) throw e;
    return page(w, { theme: brand, themeForm, themeErrors: errorsOf(e) }, e.status);
  }
  setFlash(w, "email_theme_saved");
  return redirect(w, `/mail-accounts?theme=${encodeURIComponent(brand)}`);
}

const member = { access: "member" as const };
export const mailAccountPageRoutes: WebRoute[] = [
  {
    method: "GET",
    path: "/mail-accounts",
    ...member,
    org: "read",
    needs: "channels:read",
    handler: (w) => page(w),
  },
  {
    method: "POST",
    path: "/mail-accounts",
    ...member,
    org: "write",
    needs: "channels:write",
    handler: connect,
  },
  {
    method: "POST",
    path: "/mail-accounts/:id/delete",
    ...member,
    org: "write",
    needs: "channels:write",
    handler: remove,
  },
  {
    method: "POST",
    path: "/mail-accounts/theme/:id",
    ...member,
    org: "write",
    needs: "brands:write",
    handler: theme,
  },
];
