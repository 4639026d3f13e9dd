// /brands: the org's brands, creating one (createBrand, as POST /v1/brands), a brand's settings and weekly slots
// (updateBrand, as POST /v1/brands/<id>), and deleting one after typing its name (deleteBrand). The slot grid's
// days become the API's slot list; a problem the domain finds with one slot is shown beside its day.
import {
  type BrandCard,
  type BrandForm,
  BrandPage,
  BrandsPage,
  DeleteBrandPage,
  formOfBrand,
  WEEK,
} from "../../../views/brands.tsx";
import type { FieldErrors } from "../../../views/frame.ts";
import type { ReviewLinksState } from "../../../views/review-links.tsx";
import { deleteBrand } from "../../domain/brands/delete.ts";
import type { Brand } from "../../domain/brands/present.ts";
import { createBrand, getBrand, listBrands, updateBrand } from "../../domain/brands/service.ts";
import { listChannels } from "../../domain/channels/service.ts";
import { listReviewLinks } from "../../domain/review-links/list.ts";
import { nextFreeSlot } from "../../domain/slots/free.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

/** The IANA zones offered in the time zone field (any other valid name is accepted too). */
const zones = (() => {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return ["UTC"];
  }
})();

const emptyForm = (): BrandForm => ({
  name: "",
  slug: "",
  timezone: "UTC",
  approval_policy: "none",
  utm_domains: "",
  days: {},
});

async function card(w: Web, b: Brand, channels: { brand: string }[]): Promise<BrandCard> {
  const next = await nextFreeSlot(w.app, w.member!.actor, b.id);
  return {
    ...b,
    next_slot: next ? new Date(next).toISOString() : null,
    channels: channels.filter((c) => c.brand === b.id).length,
  };
}

async function list(w: Web, form = emptyForm(), errors?: FieldErrors, status = 200) {
  const actor = w.member!.actor;
  const f = frame(w, "Brands", "brands");
  const canManage = actor.scopes.has("brands:write");
  if (w.member!.org.status === "suspended")
    return render(w, <BrandsPage f={f} brands={[]} canManage={canManage} form={form} zones={zones} />);
  const [brands, channels] = await Promise.all([
    listBrands(w.app, actor, { limit: "100" }),
    listChannels(w.app, actor, { limit: "100" }),
  ]);
  const cards = await Promise.all(brands.data.map((b) => card(w, b, channels.data)));
  cards.sort((a, b) => a.name.localeCompare(b.name));
  return render(
    w,
    <BrandsPage f={f} brands={cards} canManage={canManage} form={form} errors={errors} zones={zones} />,
    status,
  );
}

function readForm(w: Web): BrandForm {
  const days: Record<string, string> = {};
  for (const d of WEEK) days[d] = w.form.get(`slots.${d}`) ?? "";
  return {
    name: w.form.get("name") ?? "",
    slug: w.form.get("slug") ?? "",
    timezone: w.form.get("timezone") ?? "",
    approval_policy: w.form.get("approval_policy") ?? "",
    utm_domains: w.form.get("utm_domains") ?? "",
    days,
  };
}

/** "9:00" is read as 09:00; anything else is passed on as typed, for the domain to judge. */
const time = (t: string) => (/^\d:\d\d$/.test(t) ? `0${t}` : t);

/** The form as the API's brand input, and which day each slot came from (to put a slot's problem beside it). */
function toInput(form: BrandForm, withSlots: boolean) {
  const slots: { weekday: string; time: string }[] = [];
  for (const d of WEEK)
    for (const t of (form.days[d] ?? "").split(/[\s,;]+/).filter(Boolean))
      slots.push({ weekday: d, time: time(t) });
  const domains = form.utm_domains
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    input: {
      name: form.name,
      ...(form.slug.trim() ? { slug: form.slug.trim() } : {}),
      timezone: form.timezone.trim(),
      approval_policy: form.approval_policy,
      utm_domains: domains,
      ...(withSlots ? { slots } : {}),
    },
    dayOf: (i: number) => slots[i]?.weekday,
  };
}

/** Problems by field, a slot's under its day (`slots.3.time` → `slots.tuesday`), a UTM domain's under the list. */
function errorsOf(e: ServiceError, dayOf: (i: number) => string | undefined): FieldErrors {
  const raw = fieldErrors(e);
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(raw)) {
    const slot = /^slots\.(\d+)/.exec(k);
    const key = slot
      ? `slots.${dayOf(Number(slot[1])) ?? ""}`
      : k.startsWith("utm_domains")
        ? "utm_domains"
        : k;
    out[key] = out[key] ? `${out[key]} ${v}` : v;
  }
  return out;
}

async function create(w: Web) {
  const form = readForm(w);
  const { input, dayOf } = toInput(form, false);
  try {
    const b = await createBrand(w.app, w.member!.actor, input);
    setFlash(w, "brand_created");
    return redirect(w, `/brands/${b.id}`);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 403) throw e;
    return list(w, form, errorsOf(e, dayOf), e.status);
  }
}

export async function edit(
  w: Web,
  form?: BrandForm,
  errors?: FieldErrors,
  status = 200,
  links?: Omit<ReviewLinksState, "links">,
) {
  const actor = w.member!.actor;
  const b = await getBrand(w.app, actor, w.params.id ?? "");
  const channels = await listChannels(w.app, actor, { limit: "100", brand: b.id });
  const c = await card(w, b, channels.data);
  // Only those who may approve may hand that power to a client.
  const reviewLinks = actor.scopes.has("posts:approve")
    ? { ...links, links: (await listReviewLinks(w.app, actor, { brand: b.id, limit: "100" })).data }
    : null;
  return render(
    w,
    <BrandPage
      f={frame(w, b.name, "brands")}
      brand={c}
      form={form ?? formOfBrand(c)}
      errors={errors}
      zones={zones}
      reviewLinks={reviewLinks}
    />,
    status,
  );
}

async function save(w: Web) {
  const form = readForm(w);
  const { input, dayOf } = toInput(form, true);
  try {
    const b = await updateBrand(w.app, w.member!.actor, w.params.id ?? "", input);
    setFlash(w, "brand_saved");
    return redirect(w, `/brands/${b.id}`);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 403 || e.status === 404) throw e;
    return edit(w, form, errorsOf(e, dayOf), e.status);
  }
}

async function confirmDelete(w: Web, errors?: FieldErrors, status = 200) {
  const b = await getBrand(w.app, w.member!.actor, w.params.id ?? "");
  return render(
    w,
    <DeleteBrandPage f={frame(w, `Delete ${b.name}`, "brands")} brand={b} errors={errors} />,
    status,
  );
}

async function remove(w: Web) {
  try {
    await deleteBrand(w.app, w.member!.actor, w.params.id ?? "", { confirm: w.form.get("confirm") ?? "" });
    setFlash(w, "brand_deleted");
    return redirect(w, "/brands");
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 403 || e.status === 404) throw e;
    return confirmDelete(w, fieldErrors(e), e.status);
  }
}

const write = { access: "member", org: "write", needs: "brands:write" } as const;

export const brandRoutes: WebRoute[] = [
  { method: "GET", path: "/brands", access: "member", org: "read", handler: (w) => list(w) },
  { method: "POST", path: "/brands", ...write, handler: create },
  {
    method: "GET",
    path: "/brands/:id",
    access: "member",
    org: "read",
    needs: "brands:write",
    handler: (w) => edit(w),
  },
  { method: "POST", path: "/brands/:id", ...write, handler: save },
  { method: "GET", path: "/brands/:id/delete", ...write, handler: (w) => confirmDelete(w) },
  { method: "POST", path: "/brands/:id/delete", ...write, handler: remove },
];
