// Small pieces shared by the pages: labelled fields with their error beside them, the hidden CSRF field, and a
// form-level error. Text is escaped by the JSX runtime; nothing here opts out.
import type { Child } from "hono/jsx";
import { zonedStamp } from "../src/lib/zoned.ts";
import type { FieldErrors } from "./frame.ts";

export function Csrf(props: { token: string }) {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

export function Field(props: {
  name: string;
  label: string;
  type?: string;
  value?: string | undefined;
  errors?: FieldErrors | undefined;
  autocomplete?: string;
  required?: boolean;
  hint?: string;
  inputmode?: "numeric" | "text";
  maxlength?: number;
}) {
  const id = `f-${props.name}`;
  const error = props.errors?.[props.name];
  const describedBy = [props.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class={error ? "field has-error" : "field"}>
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value ?? ""}
        autocomplete={props.autocomplete}
        required={props.required}
        inputmode={props.inputmode}
        maxlength={props.maxlength}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy || undefined}
      />
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** An error about the form as a whole (or a field the form does not show). */
export function FormError(props: { errors?: FieldErrors | undefined; shown?: string[] }) {
  const shown = new Set(props.shown ?? []);
  const rest = Object.entries(props.errors ?? {}).filter(([k]) => !shown.has(k));
  if (!rest.length) return null;
  return (
    <div class="alert error" role="alert">
      {rest.map(([, text]) => (
        <p>{text}</p>
      ))}
    </div>
  );
}

export function Section(props: { title: string; children?: Child; id?: string }) {
  const id = props.id ?? `s-${props.title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** A table that scrolls sideways on a narrow screen (focusable, so a keyboard can scroll it), with a last column
 * of per-row actions under a quiet heading. */
export function ActionTable(props: { id: string; label: string; columns: string[]; children?: Child }) {
  return (
    <section class="table-wrap" tabindex={0} aria-label={`${props.label} (scrolls sideways)`}>
      <table id={props.id}>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th scope="col">{c}</th>
            ))}
            <th scope="col">
              <span class="muted">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </section>
  );
}

/** A brand as it is named wherever one is picked or shown. */
export interface BrandRef {
  name: string;
  slug: string;
}

/**
 * A brand's name with its slug beside it: two brands may share a name (only the slug is unique in an org), so a
 * list, a filter or a post that named only the name could not be told apart. Every view names brands through this.
 */
export const brandLabel = (b: BrandRef) => `${b.name} (${b.slug})`;

/**
 * One Intl.DateTimeFormat per set of options (zone included), kept: making one costs about a millisecond, and a
 * calendar page formats hundreds of times (the queue's week took a second making them before they were kept).
 * The keys are bounded by the IANA zones times the few option sets the views use.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
export function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", options);
    formatters.set(key, f);
  }
  return f;
}

export const when = (iso: string | null | undefined) =>
  iso ? iso.replace("T", " ").slice(0, 16) + " UTC" : "—";

/** A time as the brand's people read it: in its IANA zone, with the offset (2026-11-24 10:00 GMT-5). */
export function whenIn(iso: string | null | undefined, timeZone: string): string {
  return iso ? zonedStamp(Date.parse(iso), timeZone) : "—";
}

/**
 * A calendar date's label as Intl writes it with `options` (read in UTC, where the date's midnight is that date),
 * kept: a calendar names each of its days on every page, and Intl costs several µs a call. The options are only
 * those four (the key names each); the cache is bounded by the dates and option sets the views use, and cleared
 * when it grows past them.
 */
const dateLabels = new Map<string, string>();
export function dateLabel(
  date: string,
  options: Pick<Intl.DateTimeFormatOptions, "weekday" | "day" | "month" | "year">,
): string {
  const key = `${date} ${options.weekday ?? ""} ${options.day ?? ""} ${options.month ?? ""} ${options.year ?? ""}`;
  let label = dateLabels.get(key);
  if (label === undefined) {
    const [y, m, d] = date.split("-").map(Number) as [number, number, number];
    label = dateFormat({ ...options, timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, d)));
    if (dateLabels.size >= 10_000) dateLabels.clear();
    dateLabels.set(key, label);
  }
  return label;
}
