// Finding templates: by ID for the /v1/templates/{id} routes (a miss is a 404), and by the reference a post or a
// preview names (`key`, `key@N` or an ID) within one brand, where a miss is a problem of the request.
import type { Db, Tx } from "../../db/index.ts";
import type { TemplatesTable, TemplateVersionsTable } from "../../db/tables/templates.ts";
import { invalid, notFound, type Problem, problem } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { type Actor, brandVisible } from "../actor.ts";
import { isProblem, parseTemplateRef } from "./key.ts";
import type { TemplateSource } from "./source.ts";

/** A template a post or preview uses: the row, the version chosen and that version's source. */
export interface ResolvedTemplate {
  template: TemplatesTable;
  version: number;
  source: TemplateSource;
}

/** Templates of the actor's org that are not deleted, within a brand-limited key's brand. */
function visible(db: Db | Tx, actor: Actor) {
  let q = db
    .selectFrom("templates")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("deleted_at", "is", null);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  return q;
}

/** A template by ID; another org's, another brand's (for a brand-limited key) or a deleted one is missing. */
export async function loadTemplate(
  db: Db | Tx,
  actor: Actor,
  id: string,
  param = "id",
): Promise<TemplatesTable> {
  const row = isId("tmpl", id) ? await visible(db, actor).where("id", "=", id).executeTakeFirst() : undefined;
  if (!row) throw notFound(`No template ${id} in this org.`, param);
  return row;
}

export async function loadVersion(
  db: Db | Tx,
  templateId: string,
  version: number,
): Promise<TemplateVersionsTable | undefined> {
  return db
    .selectFrom("template_versions")
    .selectAll()
    .where("template_id", "=", templateId)
    .where("version", "=", version)
    .executeTakeFirst();
}

/**
 * Resolves a reference within a brand (null: any brand the actor sees, for an ID). A malformed reference is
 * `template_invalid`; one that names nothing here (another brand's, a deleted template, a version not yet made) is
 * `template_missing`. Returns the problem rather than throwing, so a post can list it with its other problems.
 */
export async function findTemplate(
  db: Db | Tx,
  actor: Actor,
  brandId: string | null,
  ref: string,
  param = "template",
): Promise<ResolvedTemplate | Problem> {
  const parsed = parseTemplateRef(ref, param);
  if (isProblem(parsed)) return parsed;
  const missing = problem("template_missing", `No template \`${ref}\` in this brand.`, param);
  if (brandId !== null && !brandVisible(actor, brandId)) return missing;
  let q = visible(db, actor);
  if (brandId !== null) q = q.where("brand_id", "=", brandId);
  if (parsed.kind === "id") q = q.where("id", "=", parsed.id);
  else if (brandId === null)
    return problem("template_missing", `Name a brand to find \`${ref}\` by key.`, param);
  else q = q.where("key", "=", parsed.key);
  const template = await q.executeTakeFirst();
  if (!template) return missing;
  const version =
    parsed.kind === "key" && parsed.version !== undefined ? parsed.version : template.latest_version;
  const row = version <= template.latest_version ? await loadVersion(db, template.id, version) : undefined;
  if (!row) {
    const message = `Template \`${template.key}\` has no version ${version}; its latest is ${template.latest_version}.`;
    return problem("template_missing", message, param, { latest_version: template.latest_version });
  }
  return { template, version, source: JSON.parse(row.source) as TemplateSource };
}

/** findTemplate, throwing its problem as a 422. */
export async function resolveTemplate(
  db: Db | Tx,
  actor: Actor,
  brandId: string | null,
  ref: string,
  param = "template",
): Promise<ResolvedTemplate> {
  const found = await findTemplate(db, actor, brandId, ref, param);
  if ("code" in found) throw invalid([found]);
  return found;
}
