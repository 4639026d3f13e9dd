// Brands: the org's publishing identities. Shared by both modes; slots and approval policy live here.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import { columns, dialectOf, raw } from "../../db/raw.ts";
import { BRAND_COLUMNS, type BrandsTable } from "../../db/schema.ts";
import { conflict, forbidden, notFound } from "../../lib/errors.ts";
import { isId, newId } from "../../lib/ids.ts";
import { type Actor, brandVisible, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { assertWithinLimit } from "../orgs/limits.ts";
import { listParams, page } from "../pagination.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentBrand } from "./present.ts";
import { APPROVAL_POLICIES, BrandCreate, BrandUpdate, DEFAULT_SLOTS } from "./schema.ts";

// Built once rather than joining the column list on every call.
const BRAND_BY_ID = `SELECT ${columns(BRAND_COLUMNS)} FROM brands WHERE org_id = ? AND id = ?`;
const BRAND_BY_SLUG = `SELECT ${columns(BRAND_COLUMNS)} FROM brands WHERE org_id = ? AND slug = ?`;
const BRAND_CHOICES = "SELECT id, name, slug, timezone FROM brands WHERE org_id = ?";

/** Finds a brand by ID or slug in the actor's org; other orgs' and hidden brands look missing. */
export async function loadBrand(
  db: Db | Tx,
  actor: Actor,
  ref: string,
  param = "brand",
): Promise<BrandsTable> {
  // Plain text: every post create and preview loads its brand.
  const [row] = await raw<BrandsTable>(db, dialectOf(db), isId("brand", ref) ? BRAND_BY_ID : BRAND_BY_SLUG, [
    actor.orgId,
    ref,
  ]);
  if (!row || !brandVisible(actor, row.id)) throw notFound(`No brand ${ref} in this org.`, param);
  return row;
}

export async function listBrands(app: App, actor: Actor, query: Record<string, unknown>) {
  requireScope(actor, "brands:read");
  let q = app.db.selectFrom("brands").selectAll().where("org_id", "=", actor.orgId);
  if (actor.brandId) q = q.where("id", "=", actor.brandId);
  return page(q, listParams(query, "brand"), "/v1/brands", presentBrand);
}

/**
 * The actor's brands for a picker (the first 100, as listBrands gives them): only what a picker shows, without
 * the slots, UTM domains and email theme listBrands parses for each brand.
 */
export async function brandChoices(
  app: App,
  actor: Actor,
): Promise<{ id: string; name: string; slug: string; timezone: string }[]> {
  requireScope(actor, "brands:read");
  // Plain text: most dashboard pages list them (the filters, the pickers).
  return actor.brandId
    ? raw(app.db, app.dialect, `${BRAND_CHOICES} AND id = ? ORDER BY id DESC LIMIT 100`, [
        actor.orgId,
        actor.brandId,
      ])
    : raw(app.db, app.dialect, `${BRAND_CHOICES} ORDER BY id DESC LIMIT 100`, [actor.orgId]);
}

export async function getBrand(app: App, actor: Actor, ref: string) {
  requireScope(actor, "brands:read");
  return presentBrand(await loadBrand(app.db, actor, ref, "id"));
}

/** The slug a brand name gives when none is chosen: accents dropped, lowercase words joined by dashes. */
export const slugify = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 90) || "brand";

export async function createBrand(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "brands:write");
  if (actor.brandId) throw forbidden("forbidden", "A brand-limited key cannot create brands.");
  const b = parse(BrandCreate, input);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    await assertWithinLimit(tx, actor.orgId, "brands", async () => 1 + (await countBrands(tx, actor.orgId)));
    let slug = b.slug ?? slugify(b.name);
    if (!b.slug) {
      // A derived slug takes the first free -N suffix; a given slug must be free.
      const taken = new Set(
        (
          await tx
            .selectFrom("brands")
            .select("slug")
            .where("org_id", "=", actor.orgId)
            .where("slug", "like", `${slug}%`)
            .execute()
        ).map((r) => r.slug),
      );
      for (let i = 2; taken.has(slug); i++) slug = `${slugify(b.name)}-${i}`;
    }
    const row: BrandsTable = {
      id: newId("brand", now),
      org_id: actor.orgId,
      name: b.name,
      slug,
      timezone: b.timezone ?? "UTC",
      approval_policy: b.approval_policy ?? "none",
      utm_domains: JSON.stringify(b.utm_domains ?? []),
      slots: JSON.stringify(b.slots ?? DEFAULT_SLOTS),
      email_theme: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await tx.insertInto("brands").values(row).execute();
    } catch (e) {
      if (isUniqueViolation(e))
        throw conflict("slug_taken", `Another brand in this org has the slug ${slug}.`, { param: "slug" });
      throw e;
    }
    await audit(tx, app, actor, { action: "brand.create", target: row.id, detail: { name: row.name, slug } });
    return presentBrand(row);
  });
}

export async function updateBrand(app: App, actor: Actor, ref: string, input: unknown) {
  requireScope(actor, "brands:write");
  const b = parse(BrandUpdate, input);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const cur = await loadBrand(tx, actor, ref, "id");
    if (
      b.approval_policy &&
      APPROVAL_POLICIES.indexOf(b.approval_policy) < APPROVAL_POLICIES.indexOf(cur.approval_policy as never)
    ) {
      // Making fewer posts need approval is itself an approval decision.
      requireScope(actor, "posts:approve");
    }
    const set: Partial<BrandsTable> = { updated_at: now };
    if (b.name !== undefined) set.name = b.name;
    if (b.slug !== undefined) set.slug = b.slug;
    if (b.timezone !== undefined) set.timezone = b.timezone;
    if (b.approval_policy !== undefined) set.approval_policy = b.approval_policy;
    if (b.utm_domains !== undefined) set.utm_domains = JSON.stringify(b.utm_domains);
    if (b.slots !== undefined) set.slots = JSON.stringify(b.slots);
    try {
      await tx
        .updateTable("brands")
        .set(set)
        .where("id", "=", cur.id)
        .where("org_id", "=", actor.orgId)
        .execute();
    } catch (e) {
      if (isUniqueViolation(e))
        throw conflict("slug_taken", `Another brand in this org has the slug ${b.slug}.`, { param: "slug" });
      throw e;
    }
    const changed = Object.keys(b);
    await audit(tx, app, actor, { action: "brand.update", target: cur.id, detail: { fields: changed } });
    return presentBrand({ ...cur, ...set });
  });
}

async function countBrands(tx: Tx, orgId: string): Promise<number> {
  const r = await tx
    .selectFrom("brands")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("org_id", "=", orgId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
