import type { TemplatesTable, TemplateVersionsTable } from "../../db/tables/templates.ts";
import { iso } from "../../lib/clock.ts";
import type { TemplateSource } from "./source.ts";

/** A stored version: its source, number and time. */
export const presentVersion = (v: TemplateVersionsTable) => ({
  ...(JSON.parse(v.source) as TemplateSource),
  version: v.version,
  created_at: iso(v.created_at),
});

/**
 * The Template resource. Lists leave the bodies out (no `latest`); a single template carries its latest version,
 * and, when one was asked for with `?version=N`, that version too.
 */
export function presentTemplate(
  t: TemplatesTable,
  latest?: TemplateVersionsTable,
  requested?: TemplateVersionsTable,
) {
  return {
    id: t.id,
    object: "template" as const,
    brand: t.brand_id,
    key: t.key,
    name: t.name,
    approval: t.approval,
    latest_version: t.latest_version,
    ...(latest ? { latest: presentVersion(latest) } : {}),
    ...(requested ? { version: presentVersion(requested) } : {}),
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  };
}
export type Template = ReturnType<typeof presentTemplate>;
