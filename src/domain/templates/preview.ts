// POST /v1/templates/preview: how a template (stored, or a source being written) renders on each network, with
// every rule each rendition breaks. It changes nothing. A source that cannot render at all, or data that does not
// fit the variables, is a 422; a text that is too long for a network is a violation in the body, not an error.
import type { App } from "../../app/context.ts";
import type { BrandsTable } from "../../db/schema.ts";
import { badRequest, invalid, type Problem, problem } from "../../lib/errors.ts";
import { isProvider } from "../../platforms/rules-registry.ts";
import { providers as allProviders, type Provider } from "../../platforms/types.ts";
import { type Actor, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { loadRender, type RenderViolation } from "../render/lazy.ts";
import { PREVIEW_POST_ID } from "../render/preview-id.ts";
import { findTemplate } from "./resolve.ts";
import { parseCollecting, TemplatePreview } from "./schema.ts";
import { sourceRules } from "./service.ts";
import { type TemplateSource, validateData, validateSource } from "./source.ts";

/** Every network a template can be posted to; the sandbox is left out, as it emulates one of these. */
const DEFAULT_PROVIDERS = allProviders.filter((p) => p !== "sandbox");

const SOURCE_FIELDS = ["variables", "examples", "body", "overrides", "fit"] as const;

export interface TemplateRendition {
  provider: Provider;
  channel: null;
  parts: string[];
  lengths: number[];
  limit: number | null;
  counting: string;
  violations: RenderViolation[];
  notices: never[];
}

export async function previewTemplate(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "templates:read");
  const { value: b, problems } = parseCollecting(TemplatePreview, input);
  const given = SOURCE_FIELDS.filter((f) => b[f] !== undefined);
  if (b.template !== undefined && given.length > 0)
    throw badRequest(
      "parameter_conflict",
      `Give a stored template or a source, not both (${given.join(", ")} came with template).`,
      "template",
    );

  const brand: BrandsTable | null = b.brand !== undefined ? await loadBrand(app.db, actor, b.brand) : null;
  let source: TemplateSource;
  let campaign: string | null = null;
  let brandRow = brand;
  if (b.template !== undefined) {
    const brandId = brand?.id ?? actor.brandId;
    const found = await findTemplate(app.db, actor, brandId, b.template);
    if ("code" in found) throw invalid([...problems, found]);
    source = found.source;
    campaign = found.template.key;
    brandRow ??= await loadBrand(app.db, actor, found.template.brand_id);
  } else {
    problems.push(...validateSource(b, sourceRules));
    source = {
      variables: b.variables,
      examples: b.examples ?? [],
      body: b.body ?? "",
      overrides: b.overrides ?? {},
      fit: (b.fit ?? {}) as TemplateSource["fit"],
    };
  }

  const providers = providerList(b.providers, problems);
  const data = b.data !== undefined ? b.data : source.examples[0];
  if (b.data !== undefined) problems.push(...validateData(source.variables, b.data));
  if (problems.length) throw invalid(problems);

  const utm = {
    domains: brandRow ? (JSON.parse(brandRow.utm_domains) as string[]) : [],
    campaign,
    postId: PREVIEW_POST_ID,
  };
  const { renderForProvider } = await loadRender();
  const renditions: TemplateRendition[] = providers.map((provider) => {
    const r = renderForProvider({ provider, template: { source, data }, utm });
    return { ...r, channel: null, notices: [] };
  });
  return {
    object: "preview" as const,
    valid: renditions.every((r) => r.violations.length === 0),
    renditions,
  };
}

/** The providers asked for, once each in the order given; an unknown one is `provider_unknown`. */
function providerList(asked: string[] | undefined, problems: Problem[]): Provider[] {
  if (asked === undefined) return [...DEFAULT_PROVIDERS];
  const out: Provider[] = [];
  asked.forEach((p, i) => {
    if (!isProvider(p))
      problems.push(problem("provider_unknown", `Unknown provider \`${p}\`.`, `providers.${i}`));
    else if (!out.includes(p)) out.push(p);
  });
  return out;
}
