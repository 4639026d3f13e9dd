// Templates: reusable post bodies with declared variables; an agent fills `data` instead of writing text.
import * as v from "valibot";
import { badRequest, ServiceError } from "../../lib/errors.ts";
import { type ApiAnswer, type ApiCall, segment } from "../api.ts";
import { BRAND, described } from "../fields.ts";
import { READ, type Tool } from "../tool.ts";

/** A template by ID, or by `key` / `key@version` within a brand. */
async function getTemplate(api: ApiCall, a: { template: string; brand?: string }): Promise<ApiAnswer> {
  if (a.template.startsWith("tmpl_"))
    return api({ method: "GET", path: `/v1/templates/${segment(a.template)}` });
  const m = /^(.*?)(?:@(\d+))?$/.exec(a.template)!;
  const key = m[1]!;
  // Thrown, not answered: the server makes the problem as the API would, with this call's request ID.
  if (!a.brand)
    throw badRequest("parameter_missing", "Give `brand` (id or slug) to find a template by key.", "brand");
  const found = await api({ method: "GET", path: "/v1/templates", query: { brand: a.brand, key } });
  if (found.status !== 200) return found;
  const first = found.body.data?.[0];
  if (!first)
    throw new ServiceError(404, "template_missing", `Brand ${a.brand} has no template with key ${key}.`, {
      param: "template",
    });
  return api({ method: "GET", path: `/v1/templates/${segment(first.id)}`, query: { version: m[2] } });
}

export const templateTools: Tool[] = [
  {
    name: "list_templates",
    description:
      "List templates (without bodies), optionally of one brand and with one key. A template turns `data` into " +
      "each network's text; prefer it over writing text when the brand has one for the purpose. Then call " +
      "get_template to see its variables and examples. Needs templates:read.",
    annotations: { title: "List templates", ...READ },
    input: v.strictObject({
      brand: described(v.optional(v.string()), `${BRAND} Without it, the templates of every brand.`),
      key: described(v.optional(v.string()), "Only the template with this key (such as `launch`)."),
    }),
    run: (api, a: { brand?: string; key?: string }) =>
      api({ method: "GET", path: "/v1/templates", query: { brand: a.brand, key: a.key, limit: 100 } }),
  },
  {
    name: "get_template",
    description:
      "Get one template with its latest version (or the version in `key@N`): the JSON Schema of its variables " +
      "(what `data` must hold), examples of valid data, the body and per-network overrides. `template` is a " +
      "template id, or a key / key@version together with `brand`. Needs templates:read.",
    annotations: { title: "Get a template", ...READ },
    input: v.strictObject({
      template: described(
        v.string(),
        "The template: its id (tmpl_…), or its key (its latest version) or `key@N` (version N) within `brand`.",
      ),
      brand: described(v.optional(v.string()), `${BRAND} Needed when \`template\` is a key.`),
    }),
    run: getTemplate,
  },
];
