// /templates: the org's templates (listTemplates), the editor (getTemplate; createTemplate, updateTemplate and
// createTemplateVersion as POST /v1/templates and /v1/templates/<id>[/versions]), its preview per network
// (previewTemplate, the source being written rendered with its example) and deletion (deleteTemplate). The
// schema and example are typed as JSON; text that is not JSON is refused beside its field before the domain is
// asked. A new version keeps the per-network bodies and fits of the one before (the API edits those).
import type { FieldErrors } from "../../../views/frame.ts";
import {
  TemplateEditor,
  type TemplateForm,
  TemplatePreviewPanel,
  type TemplatePreviewState,
  TemplatesPage,
} from "../../../views/templates.tsx";
import { listBrands } from "../../domain/brands/service.ts";
import { listChannels } from "../../domain/channels/service.ts";
import { previewTemplate } from "../../domain/templates/preview.ts";
import {
  createTemplate,
  createTemplateVersion,
  deleteTemplate,
  getTemplate,
  listTemplates,
  updateTemplate,
} from "../../domain/templates/service.ts";
import { invalid, type Problem, problem, ServiceError } from "../../lib/errors.ts";
import { getPlatform } from "../../platforms/rules-registry.ts";
import { fieldErrors, fragment, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

/** Networks previewed when the brand has no channel in this mode yet. */
const FALLBACK = ["bluesky", "mastodon", "x"];

const emptyForm = (brand: string): TemplateForm => ({
  id: "",
  brand,
  key: "",
  name: "",
  approval: "inherit",
  body: "",
  // A schema with no fields yet, and data that fits it: a template needs both (variables, example).
  variables: '{\n  "type": "object",\n  "properties": {}\n}',
  example: "{}",
});

const pretty = (v: unknown) => (v === undefined || v === null ? "" : JSON.stringify(v, null, 2));

async function brandsOf(w: Web) {
  const brands = await listBrands(w.app, w.member!.actor, { limit: "100" });
  return [...brands.data].sort((a, b) => a.name.localeCompare(b.name));
}

async function list(w: Web) {
  const actor = w.member!.actor;
  const f = frame(w, "Templates", "templates");
  const canWrite = actor.scopes.has("templates:write");
  if (w.member!.org.status === "suspended")
    return render(w, <TemplatesPage f={f} brands={[]} templates={[]} canWrite={canWrite} />);
  const [brands, templates] = await Promise.all([brandsOf(w), listTemplates(w.app, actor, { limit: "100" })]);
  return render(w, <TemplatesPage f={f} brands={brands} templates={templates.data} canWrite={canWrite} />);
}

function readForm(w: Web): TemplateForm {
  const g = (k: string) => w.form.get(k) ?? "";
  return {
    id: g("id"),
    brand: g("brand"),
    key: g("key").trim(),
    name: g("name"),
    approval: g("approval") || "inherit",
    body: g("body"),
    variables: g("variables"),
    example: g("example"),
  };
}

/** The typed schema and example as JSON, or the problems beside their fields. */
function sourceOf(form: TemplateForm): { source: Record<string, unknown>; problems: Problem[] } {
  const problems: Problem[] = [];
  const source: Record<string, unknown> = { body: form.body };
  if (form.variables.trim()) {
    try {
      source.variables = JSON.parse(form.variables);
    } catch (e) {
      problems.push(
        problem("variables_invalid", `The schema is not JSON: ${(e as Error).message}`, "variables"),
      );
    }
  }
  if (form.example.trim()) {
    try {
      source.examples = [JSON.parse(form.example)];
    } catch (e) {
      problems.push(
        problem("example_invalid", `The example is not JSON: ${(e as Error).message}`, "example"),
      );
    }
  }
  return { source, problems };
}

/** A domain problem's field as the form names it: `examples.0…` is the example, `variables…` the schema. */
function errorsOf(e: ServiceError): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(fieldErrors(e))) {
    const key = k.startsWith("examples")
      ? "example"
      : k.startsWith("variables")
        ? "variables"
        : k.startsWith("overrides") || k.startsWith("fit")
          ? ""
          : k;
    out[key] = out[key] ? `${out[key]} ${v}` : v;
  }
  return out;
}

/** The networks of the brand's channels in this mode (what a sandbox emulates), else a few common ones. */
async function networksOf(w: Web, brand: string): Promise<string[]> {
  if (!brand) return FALLBACK;
  try {
    const channels = await listChannels(w.app, w.member!.actor, { brand, limit: "100" });
    const seen = [...new Set(channels.data.map((c) => c.emulates ?? c.provider))].filter(
      (p) => p !== "sandbox",
    );
    return seen.length ? seen : FALLBACK;
  } catch {
    return FALLBACK;
  }
}

async function previewOf(w: Web, form: TemplateForm): Promise<TemplatePreviewState> {
  if (!form.body.trim()) return { kind: "empty" };
  const { source, problems } = sourceOf(form);
  if (problems.length)
    return { kind: "problems", problems: problems.map((p) => ({ code: p.code, message: p.message })) };
  try {
    const providers = await networksOf(w, form.brand);
    const p = await previewTemplate(w.app, w.member!.actor, {
      ...source,
      ...(form.brand ? { brand: form.brand } : {}),
      providers,
    });
    return {
      kind: "ok",
      renditions: p.renditions.map((r) => ({
        provider: r.provider,
        name: getPlatform(r.provider)?.name ?? r.provider,
        parts: r.parts,
        lengths: r.lengths,
        limit: r.limit,
        violations: r.violations.map((v) => ({ code: v.code, message: v.message })),
      })),
    };
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500) throw e;
    const list = e.errors ?? [{ code: e.code, message: e.message }];
    return { kind: "problems", problems: list.map((p) => ({ code: p.code, message: p.message })) };
  }
}

async function editor(w: Web, form: TemplateForm, errors?: FieldErrors, status = 200) {
  const actor = w.member!.actor;
  const canWrite = actor.scopes.has("templates:write");
  const brands = await brandsOf(w);
  let stored: { key: string; brand: string; latest_version: number; viewing: number | null } | undefined;
  if (form.id) {
    const t = await getTemplate(w.app, actor, form.id, {});
    stored = { key: t.key, brand: t.brand, latest_version: t.latest_version, viewing: null };
  }
  return render(
    w,
    <TemplateEditor
      f={frame(w, form.id ? form.name || form.key : "New template", "templates")}
      brands={brands}
      form={form}
      errors={errors}
      preview={await previewOf(w, form)}
      stored={stored}
      canWrite={canWrite}
    />,
    status,
  );
}

async function newPage(w: Web) {
  const brands = await brandsOf(w);
  const brand = w.url.searchParams.get("brand") ?? brands[0]?.id ?? "";
  return editor(w, emptyForm(brand));
}

async function show(w: Web) {
  const actor = w.member!.actor;
  const version = w.url.searchParams.get("version");
  const t = await getTemplate(w.app, actor, w.params.id ?? "", version ? { version } : {});
  const v = t.version ?? t.latest!;
  const form: TemplateForm = {
    id: t.id,
    brand: t.brand,
    key: t.key,
    name: t.name,
    approval: t.approval,
    body: v.body,
    variables: pretty(v.variables),
    example: pretty(v.examples[0]),
  };
  const brands = await brandsOf(w);
  return render(
    w,
    <TemplateEditor
      f={frame(w, t.name, "templates")}
      brands={brands}
      form={form}
      preview={await previewOf(w, form)}
      stored={{
        key: t.key,
        brand: t.brand,
        latest_version: t.latest_version,
        viewing: t.version ? t.version.version : null,
      }}
      canWrite={actor.scopes.has("templates:write")}
    />,
  );
}

async function create(w: Web) {
  const form = readForm(w);
  const { source, problems } = sourceOf(form);
  try {
    if (problems.length) throw invalid(problems);
    const t = await createTemplate(w.app, w.member!.actor, {
      ...source,
      brand: form.brand,
      key: form.key,
      ...(form.name.trim() ? { name: form.name } : {}),
      approval: form.approval,
    });
    setFlash(w, "template_saved");
    return redirect(w, `/templates/${t.id}`);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 403) throw e;
    return editor(w, form, errorsOf(e), e.status);
  }
}

async function save(w: Web) {
  const actor = w.member!.actor;
  const id = w.params.id ?? "";
  const cur = await getTemplate(w.app, actor, id, {});
  const form = { ...readForm(w), id: cur.id, brand: cur.brand, key: cur.key };
  const { source, problems } = sourceOf(form);
  try {
    if (problems.length) throw invalid(problems);
    const latest = cur.latest!;
    const changed =
      form.body !== latest.body ||
      JSON.stringify(source.variables) !== JSON.stringify(latest.variables) ||
      JSON.stringify(source.examples ?? []) !== JSON.stringify(latest.examples);
    if (changed)
      await createTemplateVersion(w.app, actor, cur.id, {
        ...source,
        overrides: latest.overrides,
        fit: latest.fit,
        ...(form.name.trim() ? { name: form.name } : {}),
      });
    if (form.approval !== cur.approval || (!changed && form.name.trim() && form.name !== cur.name))
      await updateTemplate(w.app, actor, cur.id, {
        ...(form.approval !== cur.approval ? { approval: form.approval } : {}),
        ...(form.name.trim() && form.name !== cur.name ? { name: form.name } : {}),
      });
    setFlash(w, "template_saved");
    return redirect(w, `/templates/${cur.id}`);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 403 || e.status === 404) throw e;
    return editor(w, form, errorsOf(e), e.status);
  }
}

/** htmx: the preview panel alone; without JavaScript, the editor with its preview. */
async function preview(w: Web) {
  const form = readForm(w);
  if (form.id) {
    const cur = await getTemplate(w.app, w.member!.actor, form.id, {});
    form.brand = cur.brand;
    form.key = cur.key;
  }
  if (w.request.headers.get("hx-request") === "true")
    return fragment(w, <TemplatePreviewPanel preview={await previewOf(w, form)} />);
  return editor(w, form);
}

async function remove(w: Web) {
  await deleteTemplate(w.app, w.member!.actor, w.params.id ?? "");
  setFlash(w, "template_deleted");
  return redirect(w, "/templates");
}

const write = { access: "member", org: "write", needs: "templates:write" } as const;

export const templateRoutes: WebRoute[] = [
  { method: "GET", path: "/templates", access: "member", org: "read", handler: list },
  {
    method: "GET",
    path: "/templates/new",
    access: "member",
    org: "read",
    needs: "templates:write",
    handler: newPage,
  },
  { method: "POST", path: "/templates", ...write, handler: create },
  { method: "POST", path: "/templates/preview", access: "member", org: "read", handler: preview },
  { method: "GET", path: "/templates/:id", access: "member", org: "read", handler: show },
  { method: "POST", path: "/templates/:id", ...write, handler: save },
  { method: "POST", path: "/templates/:id/delete", ...write, handler: remove },
];
