// The composer's data form for a template, made from the template's JSON Schema: one field per property (text,
// a long text, a link, a number, yes/no, a choice from `enum`, a list one item a line, or JSON for anything
// nested), its title as the label and its description as the hint, required ones marked; each problem the domain
// finds with the data (`data.<field>`) is shown beside its field. Field names are `data.<property>`.
import type { Shown } from "./publishing.tsx";

export interface DataField {
  name: string;
  label: string;
  hint: string | null;
  kind: "text" | "long" | "url" | "number" | "integer" | "boolean" | "choice" | "list" | "json";
  choices: string[];
  required: boolean;
  placeholder: string;
}

type Schema = Record<string, unknown>;
const isObj = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** The fields of a template's data, from the top-level properties of its schema. */
export function dataFields(variables: unknown, example: unknown): DataField[] {
  if (!isObj(variables) || !isObj(variables.properties)) return [];
  const required = new Set(Array.isArray(variables.required) ? (variables.required as string[]) : []);
  const ex = isObj(example) ? example : {};
  return Object.entries(variables.properties).map(([name, raw]) => {
    const s = isObj(raw) ? raw : {};
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
    const items = isObj(s.items) ? s.items : {};
    const kind: DataField["kind"] = Array.isArray(s.enum)
      ? "choice"
      : type === "string"
        ? s.format === "uri" || s.format === "url"
          ? "url"
          : typeof s.maxLength === "number" && s.maxLength <= 120
            ? "text"
            : typeof s.maxLength === "number" || name.match(/text|body|description|notes|summary/)
              ? "long"
              : "text"
        : type === "number"
          ? "number"
          : type === "integer"
            ? "integer"
            : type === "boolean"
              ? "boolean"
              : type === "array" && (items.type === "string" || items.type === undefined)
                ? "list"
                : "json";
    const sample = ex[name];
    return {
      name,
      label: typeof s.title === "string" ? s.title : name.replace(/_/g, " "),
      hint: typeof s.description === "string" ? s.description : null,
      kind,
      choices: Array.isArray(s.enum) ? s.enum.map(String) : [],
      required: required.has(name),
      placeholder:
        sample === undefined
          ? ""
          : Array.isArray(sample) && kind === "list"
            ? sample.join(", ")
            : typeof sample === "string"
              ? sample
              : JSON.stringify(sample),
    };
  });
}

/** The typed form as the template's data: empty optional fields left out, lists one item a line, JSON parsed. */
export function readData(
  fields: DataField[],
  form: URLSearchParams,
): { data: Record<string, unknown>; bad: Record<string, string> } {
  const data: Record<string, unknown> = {};
  const bad: Record<string, string> = {};
  for (const f of fields) {
    const raw = form.get(`data.${f.name}`) ?? "";
    if (f.kind === "boolean") {
      data[f.name] = raw === "true";
      continue;
    }
    if (raw.trim() === "") continue;
    if (f.kind === "number" || f.kind === "integer") {
      const n = Number(raw);
      if (Number.isFinite(n)) data[f.name] = n;
      else bad[f.name] = "Type a number.";
    } else if (f.kind === "list") {
      data[f.name] = raw
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
    } else if (f.kind === "json") {
      try {
        data[f.name] = JSON.parse(raw);
      } catch {
        bad[f.name] = "Type JSON here.";
      }
    } else data[f.name] = raw;
  }
  return { data, bad };
}

function Problems(props: { id: string; problems: Shown[] }) {
  if (!props.problems.length) return null;
  return (
    <p class="error" id={props.id}>
      {props.problems.map((p) => (
        <>
          {p.message} <code class="code">{p.code}</code>{" "}
        </>
      ))}
    </p>
  );
}

export function TemplateDataForm(props: {
  fields: DataField[];
  values: URLSearchParams;
  problems: Record<string, Shown[]>;
}) {
  if (!props.fields.length)
    return <p class="muted">This template takes no data: its text is the same for every post.</p>;
  return (
    <fieldset class="template-data" id="template-data-fields">
      <legend>The template's data</legend>
      {props.fields.map((f) => {
        const id = `data-${f.name}`;
        const value = props.values.get(`data.${f.name}`) ?? "";
        const problems = props.problems[f.name] ?? [];
        const described =
          [f.hint ? `${id}-hint` : "", problems.length ? `${id}-error` : ""].filter(Boolean).join(" ") ||
          undefined;
        const common = {
          id,
          name: `data.${f.name}`,
          "aria-invalid": problems.length ? ("true" as const) : undefined,
          "aria-describedby": described,
        };
        return (
          <div class={problems.length ? "field has-error" : "field"}>
            {f.kind === "boolean" ? (
              <label>
                <input type="checkbox" value="true" checked={value === "true"} {...common} /> {f.label}
              </label>
            ) : (
              <label for={id}>
                {f.label}
                {f.required ? null : <span class="muted"> (optional)</span>}
              </label>
            )}
            {f.hint ? (
              <p class="hint" id={`${id}-hint`}>
                {f.hint}
              </p>
            ) : null}
            {f.kind === "choice" ? (
              <select {...common}>
                {f.required ? null : <option value="">—</option>}
                {f.choices.map((c) => (
                  <option value={c} selected={value === c}>
                    {c}
                  </option>
                ))}
              </select>
            ) : f.kind === "long" || f.kind === "list" || f.kind === "json" ? (
              <textarea rows={f.kind === "json" ? 4 : 3} placeholder={f.placeholder} {...common}>
                {value}
              </textarea>
            ) : f.kind === "boolean" ? null : (
              <input
                type={
                  f.kind === "url" ? "url" : f.kind === "number" || f.kind === "integer" ? "number" : "text"
                }
                step={f.kind === "number" ? "any" : undefined}
                value={value}
                placeholder={f.placeholder}
                required={f.required}
                {...common}
              />
            )}
            {f.kind === "list" ? <p class="hint">One item a line.</p> : null}
            <Problems id={`${id}-error`} problems={problems} />
          </div>
        );
      })}
    </fieldset>
  );
}
