// The composer (/posts/new): a channel picker grouped by brand, the text, media from the brand's library, when
// to publish (now, the brand's next free slot, or a time in the brand's zone), and a live preview per channel
// beside it (htmx posts the form to /posts/preview while the person types; without JavaScript the Preview
// button does the same with a page load). A hidden Idempotency-Key, new for every rendered form, makes one
// submit one post, however often it is sent.
import type { Frame } from "./frame.ts";
import { esc, trusted } from "./html.ts";
import { Layout } from "./layout.tsx";
import { brandLabel, Csrf, whenIn } from "./parts.tsx";
import {
  type ChannelLabel,
  canChange,
  FieldProblems,
  NetworkTag,
  networkName,
  networkOf,
  networkTagHtml,
  OtherProblems,
  type Problems,
  type Shown,
} from "./publishing.tsx";
import { type DataField, TemplateDataForm } from "./template-data.tsx";

export interface ComposeBrand {
  id: string;
  name: string;
  slug: string;
  timezone: string;
  /** The next free slot (ISO), or null when every slot of the next 56 days is taken or the brand has none. */
  next_slot: string | null;
}
export interface ComposeMedia {
  id: string;
  brand: string;
  type: string;
  filename: string | null;
  alt: string | null;
  width: number | null;
  height: number | null;
}
export interface ComposeForm {
  channels: string[];
  body: string;
  /** Per network: error (refuse), truncate or thread. */
  fit: Record<string, string>;
  when: "now" | "next_slot" | "at";
  /** datetime-local values, in the brand's zone. */
  at: string;
  publish_by: string;
  media: string[];
  key: string;
  /** The account's own first reply after the post (empty: none). */
  first_comment?: string;
  /** A template's ID ("" for plain text), and the typed data fields (`data.<field>`). */
  template: string;
  values: [string, string][];
}

export const emptyForm = (key: string): ComposeForm => ({
  template: "",
  values: [],
  channels: [],
  body: "",
  fit: {},
  when: "next_slot",
  at: "",
  publish_by: "",
  media: [],
  key,
});

/** One channel's preview: what the network receives and how it measures it. */
export interface PreviewChannel {
  channel: string;
  provider: string;
  parts: string[];
  lengths: number[];
  limit: number | null;
  counting: string;
  violations: { code: string; message: string; part: number | null }[];
  notices: { code: string; message: string }[];
}

export type Preview =
  | { kind: "empty"; text: string }
  | { kind: "problems"; problems: Shown[] }
  | { kind: "ok"; valid: boolean; channels: PreviewChannel[] };

export interface ComposeProps {
  f: Frame;
  brands: ComposeBrand[];
  channels: ChannelLabel[];
  media: ComposeMedia[];
  form: ComposeForm;
  preview: Preview;
  problems?: Problems | undefined;
  /** The templates of the org's brands, to write a post from one. */
  templates: ComposeTemplate[];
  /** The chosen template's data fields (null: plain text). */
  dataFields: DataField[] | null;
}

export interface ComposeTemplate {
  id: string;
  key: string;
  name: string;
  brand: string;
}

const COUNTING: Record<string, string> = {
  characters: "characters",
  graphemes: "characters (graphemes)",
  x_weighted: "weighted characters (X counts links as 23)",
  mastodon: "characters (Mastodon counts links as 23)",
  bluesky: "characters (graphemes)",
};
const FITS: [string, string][] = [
  ["error", "Refuse it (I will shorten it)"],
  ["thread", "Split it into a thread"],
  ["truncate", "Cut it short with …"],
];

const at = (problems: Problems | undefined, ...params: string[]) =>
  params.flatMap((p) => problems?.[p] ?? []);

function ChannelPicker(props: ComposeProps) {
  const { brands, channels, form, problems } = props;
  const bad = at(problems, "channels", "brand");
  return (
    <fieldset id="channel-picker" class={bad.length ? "picker has-error" : "picker"}>
      <legend>Channels</legend>
      {brands.map((b) => {
        const own = channels.filter((c) => c.brand === b.id);
        return (
          <fieldset class="brand-group">
            <legend class="brand-name">
              {brandLabel(b)} <span class="muted">{b.timezone}</span>
            </legend>
            {own.length === 0 ? (
              <p class="muted">
                No channels in {props.f.livemode ? "live" : "test"} mode.{" "}
                <a href="/channels">Connect one on Channels</a> first.
              </p>
            ) : (
              <ul class="chips">
                {own.map((c) => {
                  const active = c.status === "active";
                  return (
                    <li>
                      <label class={active ? "chip" : "chip off"}>
                        <input
                          type="checkbox"
                          name="channels"
                          value={c.id}
                          data-brand={c.brand}
                          checked={form.channels.includes(c.id)}
                          disabled={!active}
                        />
                        <span class="chip-text">
                          <span class="chip-name">{c.display_name ?? c.handle ?? c.id}</span>
                          <NetworkTag c={c} />
                          {c.handle ? <span class="muted handle">{c.handle}</span> : null}
                          {active ? null : <span class="tag warn">{c.status.replace("_", " ")}</span>}
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
          </fieldset>
        );
      })}
      <FieldProblems id="f-channels-error" problems={bad} />
    </fieldset>
  );
}

function MediaPicker(props: ComposeProps) {
  const chosenBrands = new Set(
    props.channels.filter((c) => props.form.channels.includes(c.id)).map((c) => c.brand),
  );
  const shown = props.media.filter((m) => chosenBrands.size === 0 || chosenBrands.has(m.brand));
  const bad = Object.entries(props.problems ?? {})
    .filter(([k]) => k === "media" || k.startsWith("media."))
    .flatMap(([, p]) => p);
  const brandName = new Map(props.brands.map((b) => [b.id, brandLabel(b)]));
  return (
    <details class="media-picker" open={props.form.media.length > 0 || bad.length > 0}>
      <summary>
        Media from the library {props.form.media.length ? `(${props.form.media.length})` : ""}
      </summary>
      {shown.length === 0 ? (
        <p class="muted" id="media-none">
          No images or videos in {chosenBrands.size ? "this brand's" : "the"} library yet: drop one below, or
          upload in the <a href="/media">media library</a>.
        </p>
      ) : null}
      <ul class="media-list" id="compose-media">
        {shown.map((m) => (
          <li>
            <label>
              <input type="checkbox" name="media" value={m.id} checked={props.form.media.includes(m.id)} />{" "}
              {m.type.startsWith("image/") ? (
                <img class="thumb-sm" src={`/media/${m.id}/thumb`} alt="" loading="lazy" />
              ) : (
                <span class="thumb-sm video-thumb" aria-hidden="true">
                  ▶
                </span>
              )}
              <span>
                <strong>{m.filename ?? m.id}</strong>{" "}
                <span class="muted">
                  {m.type}
                  {m.width && m.height ? ` · ${m.width}×${m.height}` : ""} · {brandName.get(m.brand) ?? ""}
                </span>
                <span class="alt">{m.alt ? `Alt text: ${m.alt}` : "No alt text"}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      <div
        class="dropzone"
        id="compose-drop"
        data-upload="composer"
        data-action={`/media/upload?_csrf=${encodeURIComponent(props.f.csrf)}`}
        data-brand={props.brands.length === 1 ? props.brands[0]!.id : ""}
        hidden
      >
        <p>
          <strong>Upload in place:</strong> drop images or a video here, or{" "}
          <label class="file-pick">
            choose files
            <input type="file" accept="image/*,video/*" multiple class="visually-hidden" id="compose-file" />
          </label>
          . They go to the brand's library and are attached to this post.
        </p>
        <ul class="uploads" aria-live="polite" />
      </div>
      <FieldProblems id="f-media-error" problems={bad} />
    </details>
  );
}

/** The brand whose zone the form's times are in: that of the first chosen channel, or the only brand. */
export function formBrand(props: { brands: ComposeBrand[]; channels: ChannelLabel[]; form: ComposeForm }) {
  const chosen = props.channels.find((c) => props.form.channels.includes(c.id));
  return (
    props.brands.find((b) => b.id === chosen?.brand) ??
    (props.brands.length === 1 ? props.brands[0] : undefined)
  );
}

/** The next free slot as the brand's people read it; swapped in again (out of band) with every preview. */
export function NextSlot(props: { brand: ComposeBrand | undefined; oob?: boolean }) {
  return trusted(nextSlotHtml(props.brand, props.oob === true));
}

/** NextSlot as a string (views/html.ts): each keystroke's preview answers with it. */
export function nextSlotHtml(b: ComposeBrand | undefined, oob: boolean): string {
  const text = b
    ? b.next_slot
      ? ` ${whenIn(b.next_slot, b.timezone)} (${brandLabel(b)})`
      : ` none free for ${brandLabel(b)}: add slots to the brand`
    : " of the brand";
  return `<span class="muted" id="next-slot"${oob ? ' hx-swap-oob="true"' : ""}>${esc(text)}</span>`;
}

export function Zone(props: { brand: ComposeBrand | undefined; id: string; oob?: boolean }) {
  return trusted(zoneHtml(props.brand, props.id, props.oob === true));
}

/** Zone as a string (views/html.ts). */
export function zoneHtml(brand: ComposeBrand | undefined, id: string, oob: boolean): string {
  const text = brand ? `(${brand.timezone})` : "(in the brand's time zone)";
  return `<span id="${esc(id)}"${oob ? ' hx-swap-oob="true"' : ""}>${esc(text)}</span>`;
}

function Schedule(props: ComposeProps) {
  const { form, problems } = props;
  const brand = formBrand(props);
  const whenBad = at(problems, "publish_at");
  return (
    <fieldset id="schedule">
      <legend>When</legend>
      <label>
        <input type="radio" name="when" value="next_slot" checked={form.when === "next_slot"} /> Next free
        slot
        <NextSlot brand={brand} />
      </label>
      <label>
        <input type="radio" name="when" value="now" checked={form.when === "now"} /> Now
      </label>
      <label>
        <input type="radio" name="when" value="at" checked={form.when === "at"} /> At a time
      </label>
      <div class={whenBad.length ? "field has-error" : "field"}>
        <label for="f-at">
          Date and time <Zone brand={brand} id="at-zone" />
        </label>
        <input
          id="f-at"
          name="at"
          type="datetime-local"
          value={form.at}
          aria-describedby={whenBad.length ? "f-publish_at-error" : undefined}
        />
        <FieldProblems id="f-publish_at-error" problems={whenBad} />
      </div>
      <div class={at(problems, "publish_by").length ? "field has-error" : "field"}>
        <label for="f-publish_by">
          Publish by (optional) <Zone brand={brand} id="by-zone" />
        </label>
        <p class="hint" id="f-publish_by-hint">
          If it has not gone out by then, it is not sent. Default: a day after its time.
        </p>
        <input
          id="f-publish_by"
          name="publish_by"
          type="datetime-local"
          value={form.publish_by}
          aria-describedby="f-publish_by-hint f-publish_by-error"
        />
        <FieldProblems id="f-publish_by-error" problems={at(problems, "publish_by")} />
      </div>
    </fieldset>
  );
}

function FitChoices(props: ComposeProps) {
  const networks = [...new Set(props.channels.filter((c) => c.status === "active").map(networkOf))].sort();
  if (!networks.length) return null;
  return (
    <details class="fit" open={Object.values(props.form.fit).some((v) => v && v !== "error")}>
      <summary>When the text is too long for a network</summary>
      {networks.map((n) => (
        <div class="field">
          <label for={`f-fit-${n}`}>{networkName(n)}</label>
          <select id={`f-fit-${n}`} name={`fit.${n}`}>
            {FITS.map(([v, label]) => (
              <option value={v} selected={(props.form.fit[n] ?? "error") === v}>
                {label}
              </option>
            ))}
          </select>
        </div>
      ))}
    </details>
  );
}

/** The live preview: one card per chosen channel (the htmx target, also rendered alone). */
export function PreviewPanel(props: { preview: Preview; channels: ChannelLabel[] }) {
  return trusted(previewPanelHtml(props.preview, props.channels));
}

/**
 * PreviewPanel as a string (views/html.ts): it is what every keystroke's round trip answers with, and the JSX
 * runtime took a fifth of that round trip's time on the server.
 */
export function previewPanelHtml(p: Preview, channels: ChannelLabel[]): string {
  if (p.kind === "empty") return `<p class="muted preview-empty">${esc(p.text)}</p>`;
  if (p.kind === "problems")
    return `<div class="preview-problems">${p.problems
      .map((x) => `<p>${esc(x.message)} <code class="code">${esc(x.code)}</code></p>`)
      .join("")}</div>`;
  const byId = new Map(channels.map((c) => [c.id, c]));
  const cards = p.channels.map((r) => {
    const c = byId.get(r.channel);
    const fits = r.violations.length === 0;
    const n = r.violations.length;
    const parts = r.parts
      .map((text, i) => {
        const len = r.lengths[i] ?? 0;
        const over = r.limit !== null && len > r.limit;
        const count = `${len}${r.limit !== null ? ` / ${r.limit}` : ""} ${COUNTING[r.counting] ?? r.counting}`;
        return `<li class="part"><p class="part-text">${esc(text)}</p><p class="${over ? "count over" : "count"}">${esc(count)}</p></li>`;
      })
      .join("");
    const violations = n
      ? `<ul class="violations">${r.violations
          .map(
            (v) =>
              `<li>${esc(v.part !== null && r.parts.length > 1 ? `Part ${v.part + 1}: ` : "")}${esc(v.message)} <code class="code">${esc(v.code)}</code></li>`,
          )
          .join("")}</ul>`
      : "";
    return (
      `<li class="${fits ? "preview fits" : "preview breaks"}" id="preview-${esc(r.channel)}">` +
      `<div class="preview-head"><strong>${esc(c?.display_name ?? c?.handle ?? r.channel)}</strong>` +
      `${c ? networkTagHtml(c) : ""}<span class="${fits ? "fit-ok" : "fit-bad"}">${esc(fits ? "✓ Fits" : `✗ ${n} problem${n > 1 ? "s" : ""}`)}</span></div>` +
      `${r.parts.length > 1 ? `<p class="muted">A thread of ${r.parts.length} posts</p>` : ""}` +
      `<ol class="${r.parts.length > 1 ? "parts thread" : "parts"}">${parts}</ol>${violations}` +
      r.notices.map((x) => `<p class="notice">${esc(x.message)}</p>`).join("") +
      "</li>"
    );
  });
  return `<ul class="previews" id="previews">${cards.join("")}</ul>`;
}

/** Plain text, or one of the brand's templates: choosing one swaps the text for its data form (htmx asks for it;
 * without JavaScript, Preview shows it). */
function TemplateChoice(props: ComposeProps) {
  if (!props.templates.length) return null;
  const bad = props.problems?.template ?? [];
  const brandName = new Map(props.brands.map((b) => [b.id, brandLabel(b)]));
  return (
    <div class={bad.length ? "field has-error" : "field"}>
      <label for="f-template">Write</label>
      <select
        id="f-template"
        name="template"
        hx-post="/posts/preview"
        hx-trigger="change consume"
        hx-target="#preview"
        hx-swap="innerHTML"
        hx-sync="closest form:replace"
        hx-headers='{"X-Compose-Content":"1"}'
        aria-describedby={bad.length ? "f-template-error" : undefined}
      >
        <option value="">Plain text</option>
        {props.templates.map((t) => (
          <option value={t.id} selected={props.form.template === t.id}>
            From template: {t.name} ({t.key}, {brandName.get(t.brand) ?? t.brand})
          </option>
        ))}
      </select>
      <FieldProblems id="f-template-error" problems={bad} />
    </div>
  );
}

/** The text area, or the chosen template's data form; swapped in out of band when the choice changes. */
export function ComposeContent(props: ComposeProps & { oob?: boolean }) {
  const { form, problems } = props;
  const bodyBad = at(problems, "content.body", "content", "content.parts");
  const data: Problems = {};
  for (const [k, v] of Object.entries(problems ?? {}))
    if (k.startsWith("data."))
      data[k.slice(5).split(".")[0]!] = [...(data[k.slice(5).split(".")[0]!] ?? []), ...v];
  return (
    <div id="compose-content" hx-swap-oob={props.oob ? "true" : undefined}>
      {props.dataFields ? (
        <>
          <TemplateDataForm
            fields={props.dataFields}
            values={new URLSearchParams(form.values)}
            problems={data}
          />
          <FieldProblems id="f-data-error" problems={at(problems, "data")} />
        </>
      ) : (
        <div class={bodyBad.length ? "field has-error" : "field"}>
          <label for="f-body">Text</label>
          <textarea
            id="f-body"
            name="body"
            rows={7}
            hx-post="/posts/preview"
            hx-trigger="input changed delay:300ms"
            hx-target="#preview"
            hx-swap="innerHTML"
            hx-sync="closest form:replace"
            aria-describedby="f-body-hint f-body-error"
          >
            {form.body}
          </textarea>
          <p class="hint" id="f-body-hint">
            A line holding only <code>{"{{thread}}"}</code> starts the next post of a thread.
          </p>
          <FieldProblems id="f-body-error" problems={bodyBad} />
        </div>
      )}
    </div>
  );
}

export function ComposerPage(props: ComposeProps) {
  const { f, form, problems } = props;
  const writable = canChange(f);
  const shown = (k: string) =>
    k === "channels" ||
    k === "brand" ||
    k.startsWith("channels.") ||
    k === "content.body" ||
    k === "content" ||
    k === "content.parts" ||
    k === "media" ||
    k.startsWith("media.") ||
    k === "publish_at" ||
    k === "publish_by" ||
    k === "template" ||
    k === "data" ||
    k.startsWith("data.");
  return (
    <Layout f={f} scripts={["/static/upload.js"]}>
      {props.channels.length === 0 ? (
        <div class="alert warn" id="no-channels">
          <p>
            <strong>No channels in {f.livemode ? "live" : "test"} mode yet.</strong> Connect a channel to a
            brand first (<code>svc channels</code> or <code>POST /v1/channels</code>); test mode offers
            sandbox channels that reach no real network.
          </p>
        </div>
      ) : null}
      <form
        method="post"
        action="/posts/new"
        id="composer"
        class="composer"
        hx-post="/posts/preview"
        hx-trigger="change"
        hx-target="#preview"
        hx-swap="innerHTML"
        hx-sync="this:replace"
      >
        <Csrf token={f.csrf} />
        <input type="hidden" name="idempotency_key" value={form.key} />
        <div class="compose-main">
          <OtherProblems problems={problems} shown={shown} />
          <ChannelPicker {...props} />
          <TemplateChoice {...props} />
          <ComposeContent {...props} />
          <MediaPicker {...props} />
          <div class={(problems?.first_comment ?? []).length ? "field has-error" : "field"}>
            <label for="f-first-comment">First comment (optional)</label>
            <input
              id="f-first-comment"
              type="text"
              name="first_comment"
              value={form.first_comment ?? ""}
              aria-describedby="f-first-comment-hint f-first-comment-error"
            />
            <p class="hint" id="f-first-comment-hint">
              Posted by the account as a reply right after the post, where the network takes replies.
            </p>
            <FieldProblems id="f-first-comment-error" problems={problems?.first_comment ?? []} />
          </div>
          <FitChoices {...props} />
          <Schedule {...props} />
          <div class="actions">
            <button type="submit" class="primary" id="schedule-post" disabled={!writable}>
              Create post
            </button>
            <button type="submit" name="draft" value="1" id="save-draft" disabled={!writable}>
              Save as draft
            </button>
            <button type="submit" formaction="/posts/preview" id="preview-button">
              Preview
            </button>
            {writable ? null : <p class="muted">This org cannot change anything now.</p>}
          </div>
        </div>
        <section class="compose-preview" aria-labelledby="preview-title">
          <h2 id="preview-title">Preview</h2>
          <div id="preview" aria-live="polite">
            <PreviewPanel preview={props.preview} channels={props.channels} />
          </div>
        </section>
      </form>
    </Layout>
  );
}
