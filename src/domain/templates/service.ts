// Templates: a brand's named, versioned post texts. Shared by both modes; every version is immutable and is
// published as it is made (events template.version_created and template.version_published, in the actor's mode).
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import type { TemplatesTable, TemplateVersionsTable } from "../../db/tables/templates.ts";
import { badRequest, conflict, forbidden, invalid, notFound, type Problem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { isProvider } from "../../platforms/rules-registry.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { listParams, page } from "../pagination.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { type Approval, checkApproval, DEFAULT_APPROVAL } from "./approval.ts";
import { checkTemplateKey } from "./key.ts";
import { presentTemplate } from "./present.ts";
import { loadTemplate, loadVersion } from "./resolve.ts";
import {
  parseCollecting,
  type SourceFields,
  TemplateCreate,
  TemplateUpdate,
  TemplateVersionCreate,
} from "./schema.ts";
import { type Fit, type TemplateSource, validateSource } from "./source.ts";

export const sourceRules = { isProvider };

export async function listTemplates(app: App, actor: Actor, query: Record<string, string>) {
  requireScope(actor, "templates:read");
  let q = app.db
    .selectFrom("templates")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("deleted_at", "is", null);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  if (query.brand) q = q.where("brand_id", "=", (await loadBrand(app.db, actor, query.brand)).id);
  if (query.key) q = q.where("key", "=", query.key);
  return page(q, listParams(query, "tmpl"), "/v1/templates", (row) => presentTemplate(row));
}

export async function getTemplate(app: App, actor: Actor, id: string, query: Record<string, string>) {
  requireScope(actor, "templates:read");
  let wanted: number | undefined;
  if (query.version !== undefined) {
    if (!/^[1-9][0-9]{0,8}$/.test(query.version))
      throw badRequest("parameter_invalid", "version must be a positive whole number.", "version");
    wanted = Number(query.version);
  }
  const t = await loadTemplate(app.db, actor, id);
  const latest = await loadVersion(app.db, t.id, t.latest_version);
  let requested: TemplateVersionsTable | undefined;
  if (wanted !== undefined) {
    requested = await loadVersion(app.db, t.id, wanted);
    if (!requested) throw notFound(`Template ${t.key} has no version ${wanted}.`, "version");
  }
  return presentTemplate(t, latest, requested);
}

export async function createTemplate(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "templates:write");
  const { value: b, problems } = parseCollecting(TemplateCreate, input);
  const keyProblem = checkTemplateKey(b.key);
  if (keyProblem) problems.push(keyProblem);
  const approval = b.approval ?? DEFAULT_APPROVAL;
  const approvalProblem = checkApproval(approval);
  if (approvalProblem) problems.push(approvalProblem);
  else checkApprovalChange(actor, DEFAULT_APPROVAL, approval as Approval);
  const source = sourceOf(b, problems);
  if (problems.length) throw invalid(problems);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const brand = await loadBrand(tx, actor, b.brand);
    const row: TemplatesTable = {
      id: newId("tmpl", now),
      org_id: actor.orgId,
      brand_id: brand.id,
      key: b.key,
      name: b.name ?? b.key,
      approval,
      latest_version: 1,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    try {
      await tx.insertInto("templates").values(row).execute();
    } catch (e) {
      if (isUniqueViolation(e))
        throw conflict("key_taken", `Brand ${brand.slug} already has a template with the key ${b.key}.`, {
          param: "key",
        });
      throw e;
    }
    const version = await insertVersion(tx, app, actor, row, source);
    await audit(tx, app, actor, {
      action: "template.create",
      target: row.id,
      detail: { brand: brand.id, key: row.key, approval },
    });
    return version;
  });
}

export async function createTemplateVersion(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "templates:write");
  const { value: b, problems } = parseCollecting(TemplateVersionCreate, input);
  const source = sourceOf(b, problems);
  return inTx(app, async (tx) => {
    const cur = await loadTemplate(tx, actor, id);
    if (problems.length) throw invalid(problems);
    const now = app.clock.now();
    // One statement takes the next number: concurrent versions of one template each get their own.
    const bumped = await tx
      .updateTable("templates")
      .set((eb) => ({
        latest_version: eb("latest_version", "+", 1),
        updated_at: now,
        ...(b.name !== undefined ? { name: b.name } : {}),
      }))
      .where("id", "=", cur.id)
      .where("org_id", "=", actor.orgId)
      .returning("latest_version")
      .executeTakeFirstOrThrow();
    const row = { ...cur, latest_version: bumped.latest_version, updated_at: now, name: b.name ?? cur.name };
    const presented = await insertVersion(tx, app, actor, row, source);
    await audit(tx, app, actor, {
      action: "template.version_create",
      target: row.id,
      detail: { version: row.latest_version },
    });
    return presented;
  });
}

export async function updateTemplate(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "templates:write");
  const { value: b, problems } = parseCollecting(TemplateUpdate, input);
  if (b.approval !== undefined) {
    const p = checkApproval(b.approval);
    if (p) problems.push(p);
  }
  return inTx(app, async (tx) => {
    const cur = await loadTemplate(tx, actor, id);
    if (problems.length) throw invalid(problems);
    if (b.approval !== undefined)
      checkApprovalChange(actor, cur.approval as Approval, b.approval as Approval);
    const set: Partial<TemplatesTable> = { updated_at: app.clock.now() };
    if (b.name !== undefined) set.name = b.name;
    if (b.approval !== undefined) set.approval = b.approval;
    await tx
      .updateTable("templates")
      .set(set)
      .where("id", "=", cur.id)
      .where("org_id", "=", actor.orgId)
      .execute();
    await audit(tx, app, actor, {
      action: "template.update",
      target: cur.id,
      detail: {
        fields: Object.keys(b),
        ...(set.approval ? { approval: { from: cur.approval, to: set.approval } } : {}),
      },
    });
    const next = { ...cur, ...set };
    return presentTemplate(next, await loadVersion(tx, cur.id, cur.latest_version));
  });
}

/** Deleting keeps the row and its versions for the posts that used them; the key is free again at once. */
export async function deleteTemplate(app: App, actor: Actor, id: string) {
  requireScope(actor, "templates:write");
  return inTx(app, async (tx) => {
    const cur = await loadTemplate(tx, actor, id);
    const now = app.clock.now();
    await tx
      .updateTable("templates")
      .set({ deleted_at: now, updated_at: now })
      .where("id", "=", cur.id)
      .where("org_id", "=", actor.orgId)
      .execute();
    await audit(tx, app, actor, { action: "template.delete", target: cur.id, detail: { key: cur.key } });
    return { id: cur.id, object: "template" as const, deleted: true as const };
  });
}

/** Stricter first: lowering means moving down this list. */
const STRICTNESS: Approval[] = ["not_required", "inherit", "required"];

/**
 * A template's approval decides whether its posts wait for a person, so only a person sets it (a key could
 * otherwise wave its own posts through), and making fewer posts need approval needs posts:approve.
 */
function checkApprovalChange(actor: Actor, from: Approval, to: Approval): void {
  if (from === to) return;
  if (actor.kind === "api_key")
    throw forbidden(
      "forbidden",
      "A template's approval is changed only by a person, not by an API key.",
      "approval",
    );
  if (STRICTNESS.indexOf(to) < STRICTNESS.indexOf(from)) requireScope(actor, "posts:approve");
}

/** The source fields checked whole; problems are added to the list, and the source is what will be stored. */
function sourceOf(b: SourceFields, problems: Problem[]): TemplateSource {
  problems.push(...validateSource(b, sourceRules));
  return {
    variables: b.variables,
    examples: b.examples ?? [],
    body: b.body ?? "",
    overrides: b.overrides ?? {},
    fit: (b.fit ?? {}) as Record<string, Fit>,
  };
}

/** Writes a version, then the events that announce it, and returns the template as it now is. */
async function insertVersion(tx: Tx, app: App, actor: Actor, t: TemplatesTable, source: TemplateSource) {
  const version: TemplateVersionsTable = {
    template_id: t.id,
    version: t.latest_version,
    source: JSON.stringify(source),
    created_at: t.updated_at,
  };
  await tx.insertInto("template_versions").values(version).execute();
  const presented = presentTemplate(t, version);
  // Templates are shared by both modes, but events belong to one: they go to the mode of whoever made the change.
  await recordEvent(tx, app, scopeOf(actor), "template.version_created", presented);
  await recordEvent(tx, app, scopeOf(actor), "template.version_published", presented);
  return presented;
}
