// Templates: the org's templates by brand (key, name, approval, latest version), and the editor: name, approval,
// the body, the data's JSON Schema and an example, with a preview per network while typing (htmx; without
// JavaScript the Preview button); saving publishes a new version, older versions can be looked at. Deleting frees
// the key (posts that used the template keep their text).
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { type BrandRef, brandLabel, Csrf, Field, FormError, Section, when } from "./parts.tsx";

export interface TemplateRow {
  id: string;
  brand: string;
  key: string;
  name: string;
  approval: string;
  latest_version: number;
  updated_at: string;
}

export interface TemplateForm {
  /** "" for a new template. */
  id: string;
  brand: string;
  key: string;
  name: string;
  approval: string;
  body: string;
  variables: string;
  example: string;
}

export interface TemplateRendering {
  provider: string;
  name: string;
  parts: string[];
  lengths: number[];
  limit: number | null;
  violations: { code: string; message: string }[];
}

export type TemplatePreviewState =
  | { kind: "ok"; renditions: TemplateRendering[] }
  | { kind: "problems"; problems: { code: string; message: string }[] }
  | { kind: "empty" };

export const APPROVAL_CHOICES = [
  { value: "inherit", label: "As the brand's approval policy says" },
  { value: "required", label: "Always needs approval" },
  { value: "not_required", label: "Never needs approval" },
];

export function TemplatePreviewPanel(props: { preview: TemplatePreviewState }) {
  const p = props.preview;
  if (p.kind === "empty")
    return <p class="muted">Write a body to see what each network receives, rendered with the example.</p>;
  if (p.kind === "problems")
    return (
      <ul class="violations" id="tpl-preview-problems">
        {p.problems.map((x) => (
          <li>
            {x.message} <code class="code">{x.code}</code>
          </li>
        ))}
      </ul>
    );
  return (
    <ul class="previews">
      {p.renditions.map((r) => (
        <li class={r.violations.length ? "preview breaks" : "preview"} data-provider={r.provider}>
          <div class="preview-head">
            <strong>{r.name}</strong>{" "}
            <span class={r.violations.length ? "fit-bad" : "fit-ok"}>
              {r.violations.length ? "Does not fit" : "Fits"}
            </span>
          </div>
          <ol class={r.parts.length > 1 ? "parts thread" : "parts"}>
            {r.parts.map((part, i) => (
              <li>
                <div class="part-text">{part}</div>
                <span class={r.limit !== null && (r.lengths[i] ?? 0) > r.limit ? "count over" : "count"}>
                  {r.lengths[i]}
                  {r.limit !== null ? ` / ${r.limit}` : ""}
                </span>
              </li>
            ))}
          </ol>
          {r.violations.length ? (
            <ul class="violations">
              {r.violations.map((v) => (
                <li>
                  {v.message} <code class="code">{v.code}</code>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function TextArea(props: {
  name: string;
  label: string;
  hint?: string;
  value: string;
  rows: number;
  errors?: FieldErrors | undefined;
  mono?: boolean;
}) {
  const id = `f-${props.name}`;
  const error = props.errors?.[props.name];
  const described = [props.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class={error ? "field has-error" : "field"}>
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <textarea
        id={id}
        name={props.name}
        rows={props.rows}
        class={props.mono ? "mono" : undefined}
        spellcheck={props.mono ? false : undefined}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={described || undefined}
      >
        {props.value}
      </textarea>
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export interface EditorProps {
  f: Frame;
  brands: (BrandRef & { id: string })[];
  form: TemplateForm;
  errors?: FieldErrors | undefined;
  preview: TemplatePreviewState;
  /** The stored template, when editing one: its versions, and the one being looked at when not the latest. */
  stored?: { key: string; brand: string; latest_version: number; viewing: number | null } | undefined;
  canWrite: boolean;
}

export function TemplateEditor(props: EditorProps) {
  const { form, errors } = props;
  const s = props.stored;
  const readOnly = !props.canWrite || (s?.viewing != null && s.viewing !== s.latest_version);
  const shown = ["brand", "key", "name", "approval", "body", "variables", "example"];
  return (
    <Layout f={props.f}>
      <p>
        <a href="/templates">← All templates</a>
      </p>
      {s ? (
        <nav class="versions" aria-label="Versions" id="versions">
          Versions:{" "}
          {Array.from({ length: s.latest_version }, (_, i) => s.latest_version - i).map((n) => (
            <a
              href={n === s.latest_version ? `/templates/${form.id}` : `/templates/${form.id}?version=${n}`}
              aria-current={(s.viewing ?? s.latest_version) === n ? "page" : undefined}
              class="tag"
            >
              v{n}
              {n === s.latest_version ? " (latest)" : ""}
            </a>
          ))}
        </nav>
      ) : null}
      {s && props.f.scopes.includes("posts:write") ? (
        <p>
          <a class="button" href={`/posts/new?template=${encodeURIComponent(form.id)}`} id="template-compose">
            Write a post with this template
          </a>
        </p>
      ) : null}
      {s && s.viewing != null && s.viewing !== s.latest_version ? (
        <p class="alert warn" id="old-version">
          You are looking at version {s.viewing}. Posts use the latest version unless they name another (
          <code>{`${s.key}@${s.viewing}`}</code>).
        </p>
      ) : null}
      <div class="composer">
        <form
          method="post"
          action={form.id ? `/templates/${form.id}` : "/templates"}
          class="compose-main stack"
          id="template-form"
          hx-post="/templates/preview"
          hx-trigger="input delay:400ms, change"
          hx-target="#tpl-preview"
          hx-swap="innerHTML"
          hx-sync="this:replace"
        >
          <Csrf token={props.f.csrf} />
          <input type="hidden" name="id" value={form.id} />
          <FormError errors={errors} shown={shown} />
          {form.id ? (
            <p>
              <span class="tag">
                {brandLabel(props.brands.find((b) => b.id === form.brand) ?? { name: form.brand, slug: "" })}
              </span>{" "}
              Key <code>{form.key}</code>
              <input type="hidden" name="brand" value={form.brand} />
            </p>
          ) : (
            <>
              <div class={errors?.brand ? "field has-error" : "field"}>
                <label for="f-brand">Brand</label>
                <select id="f-brand" name="brand">
                  {props.brands.map((b) => (
                    <option value={b.id} selected={b.id === form.brand}>
                      {brandLabel(b)}
                    </option>
                  ))}
                </select>
                {errors?.brand ? <p class="error">{errors.brand}</p> : null}
              </div>
              <Field
                name="key"
                label="Key"
                value={form.key}
                errors={errors}
                required
                hint="How posts name it (template: &quot;key&quot;): lowercase letters, digits, dashes and underscores; one per brand."
              />
            </>
          )}
          <Field name="name" label="Name" value={form.name} errors={errors} maxlength={100} />
          <div class={errors?.approval ? "field has-error" : "field"}>
            <label for="f-approval">Approval</label>
            <select id="f-approval" name="approval">
              {APPROVAL_CHOICES.map((a) => (
                <option value={a.value} selected={form.approval === a.value}>
                  {a.label}
                </option>
              ))}
            </select>
            {errors?.approval ? <p class="error">{errors.approval}</p> : null}
          </div>
          <TextArea
            name="body"
            label="Body"
            rows={6}
            value={form.body}
            errors={errors}
            hint="The text, with {{.field}} for each field of the data, and {{if .field}}…{{end}} around an optional one; a line holding only {{thread}} starts the next post of a thread."
          />
          <TextArea
            name="variables"
            label="Data (JSON Schema)"
            rows={8}
            value={form.variables}
            errors={errors}
            mono
            hint='The fields a post gives, as a JSON Schema object, e.g. {"type":"object","properties":{"product":{"type":"string"}},"required":["product"]}.'
          />
          <TextArea
            name="example"
            label="Example data (JSON)"
            rows={4}
            value={form.example}
            errors={errors}
            mono
            hint="Data that fits the schema: the preview renders it, and every version is checked with it."
          />
          {readOnly ? null : (
            <div class="actions">
              <button type="submit" class="primary" id="template-save">
                {form.id ? `Publish version ${(s?.latest_version ?? 0) + 1}` : "Create template"}
              </button>
              <button type="submit" formaction="/templates/preview" id="template-preview">
                Preview
              </button>
            </div>
          )}
        </form>
        <aside class="compose-preview" aria-labelledby="tpl-preview-h">
          <h2 id="tpl-preview-h">Preview with the example</h2>
          <div id="tpl-preview" aria-live="polite">
            <TemplatePreviewPanel preview={props.preview} />
          </div>
        </aside>
      </div>
      {form.id && props.canWrite ? (
        <Section title="Delete this template" id="delete">
          <form
            method="post"
            action={`/templates/${form.id}/delete`}
            class="card danger-zone"
            data-confirm={`Delete the template ${form.key}? Its key becomes free; posts made with it keep their text.`}
          >
            <Csrf token={props.f.csrf} />
            <p>Its key becomes free for a new template; posts already made with it keep their text.</p>
            <button type="submit" class="danger" id="template-delete">
              Delete template
            </button>
          </form>
        </Section>
      ) : null}
    </Layout>
  );
}

export function TemplatesPage(props: {
  f: Frame;
  brands: (BrandRef & { id: string })[];
  templates: TemplateRow[];
  canWrite: boolean;
}) {
  const approval = (v: string) => APPROVAL_CHOICES.find((a) => a.value === v)?.label ?? v;
  return (
    <Layout f={props.f}>
      <p class="lead">
        A template is a post written once with fields (a product, a price, a link) that a post, your product
        or an agent fills in with data. Templates belong to a brand and are shared by test and live mode.
      </p>
      {props.canWrite && props.brands.length ? (
        <div class="page-actions">
          <a class="button primary" href="/templates/new" id="template-new">
            New template
          </a>
        </div>
      ) : null}
      {props.templates.length === 0 ? (
        <p class="empty" id="templates-empty">
          No templates yet.{" "}
          {props.canWrite
            ? props.brands.length
              ? "Make one with New template: write the text once, with a field for each thing that changes."
              : "Create a brand first."
            : "Editors and admins can make them."}
        </p>
      ) : (
        props.brands
          .filter((b) => props.templates.some((t) => t.brand === b.id))
          .map((b) => (
            <section aria-labelledby={`tb-${b.id}`} class="brand-channels">
              <h2 id={`tb-${b.id}`}>{brandLabel(b)}</h2>
              <ul class="cards">
                {props.templates
                  .filter((t) => t.brand === b.id)
                  .map((t) => (
                    <li class="card" id={`template-${t.id}`}>
                      <h3 class="brand-title">
                        <a href={`/templates/${t.id}`}>{t.name}</a>
                      </h3>
                      <p>
                        <code>{t.key}</code> <span class="tag">v{t.latest_version}</span>
                      </p>
                      <p class="muted">{approval(t.approval)}</p>
                      <p class="muted">Updated {when(t.updated_at)}</p>
                    </li>
                  ))}
              </ul>
            </section>
          ))
      )}
    </Layout>
  );
}
