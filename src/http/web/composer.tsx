// /posts/new: the composer. Thin over the same domain calls as POST /v1/posts and /v1/posts/preview, as the
// signed-in member; the form's fields become the API's PostCreate input (times typed in the brand's zone become
// RFC 3339), and every problem the domain lists is shown beside its field with its code. The form carries an
// Idempotency-Key minted when it was rendered, kept the way the API keeps one (domain/idempotency/once.ts).

import {
  type ComposeBrand,
  ComposeContent,
  type ComposeForm,
  ComposerPage,
  emptyForm,
  formBrand,
  NextSlot,
  type Preview,
  PreviewPanel,
  Zone,
} from "../../../views/composer.tsx";
import type { Problems } from "../../../views/publishing.tsx";
import { type DataField, dataFields, readData } from "../../../views/template-data.tsx";
import { listBrands, loadBrand } from "../../domain/brands/service.ts";
import { channelChoices, channelChoicesByIds } from "../../domain/channels/choices.ts";
import { once } from "../../domain/idempotency/once.ts";
import { listMedia } from "../../domain/media/service.ts";
import { createPost } from "../../domain/posts/create.ts";
import { previewPost } from "../../domain/posts/preview.ts";
import { nextFreeSlot } from "../../domain/slots/free.ts";
import { getTemplate, listTemplates } from "../../domain/templates/service.ts";
import { type Problem, problem, ServiceError } from "../../lib/errors.ts";
import { localToIso } from "./local-time.ts";
import { fragment, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const ROUTE = "/posts/new";

const newKey = () => `form_${crypto.randomUUID()}`;

function readForm(w: Web): ComposeForm {
  const f = w.form;
  const fit: Record<string, string> = {};
  for (const [k, v] of f) if (k.startsWith("fit.")) fit[k.slice(4)] = v;
  const when = f.get("when");
  return {
    channels: f.getAll("channels"),
    body: f.get("body") ?? "",
    fit,
    when: when === "now" || when === "at" ? when : "next_slot",
    at: f.get("at") ?? "",
    publish_by: f.get("publish_by") ?? "",
    media: f.getAll("media"),
    key: f.get("idempotency_key") || newKey(),
    first_comment: f.get("first_comment") ?? "",
    template: f.get("template") ?? "",
    values: [...f].filter(([k]) => k.startsWith("data.")),
  };
}

/** The chosen template's data fields and the data typed into them (null for plain text). */
async function chosenTemplate(w: Web, form: ComposeForm) {
  if (!form.template) return null;
  try {
    const t = await getTemplate(w.app, w.member!.actor, form.template, {});
    const v = t.latest!;
    const fields: DataField[] = dataFields(v.variables, v.examples[0]);
    return { id: t.id, fields, ...readData(fields, new URLSearchParams(form.values)) };
  } catch (e) {
    // Another org's or a deleted template: the post is refused with the domain's template_missing.
    if (e instanceof ServiceError && e.status === 404)
      return { id: form.template, fields: [], data: {}, bad: {} };
    throw e;
  }
}
type Chosen = Awaited<ReturnType<typeof chosenTemplate>>;

/**
 * What the composer offers: the org's brands (with their next free slot), channels (the first 100, newest first,
 * with what the picker shows) and media in this mode. The live preview asks only for the brand of the channels
 * picked (`picked`): a next free slot is a search of up to 56 days per brand, and with 50 brands that was most of
 * every keystroke's round trip.
 */
async function library(w: Web, picked?: string[]) {
  const { app } = w;
  const actor = w.member!.actor;
  if (w.member!.org.status === "suspended") return { brands: [], channels: [], media: [], templates: [] };
  const [brands, channels, media, templates] = await Promise.all([
    listBrands(app, actor, { limit: "100" }),
    channelChoices(app, actor),
    listMedia(app, actor, { limit: "100" }),
    actor.scopes.has("templates:read") ? listTemplates(app, actor, { limit: "100" }) : { data: [] },
  ]);
  const need = picked ? new Set(channels.filter((c) => picked.includes(c.id)).map((c) => c.brand)) : null;
  const slots = await Promise.all(
    brands.data.map((b) => (!need || need.has(b.id) ? nextFreeSlot(app, actor, b.id) : null)),
  );
  const out: ComposeBrand[] = brands.data.map((b, i) => ({
    id: b.id,
    name: b.name,
    slug: b.slug,
    timezone: b.timezone,
    next_slot: slots[i] ? new Date(slots[i]).toISOString() : null,
  }));
  out.sort((a, b) => a.name.localeCompare(b.name));
  return {
    brands: out,
    channels,
    media: media.data,
    templates: templates.data.map((t) => ({ id: t.id, key: t.key, name: t.name, brand: t.brand })),
  };
}
type Library = Awaited<ReturnType<typeof library>>;

/**
 * The live preview's library (htmx, on each keystroke): only the channels picked, their brand and its next free
 * slot, which is all the preview and its out-of-band labels show. Listing the org's channels, brands, media and
 * templates (a sort of every channel, at 1,000 of them) was most of the round trip. Null when none of the picked
 * channels is the member's: the whole library decides then, as it always did.
 */
async function previewLibrary(w: Web, picked: string[]): Promise<Library | null> {
  const { app } = w;
  const actor = w.member!.actor;
  if (w.member!.org.status === "suspended" || picked.length === 0) return null;
  const channels = await channelChoicesByIds(app, actor, picked);
  // The brand is the first picked channel's in the library's order (newest first), as formBrand chooses it.
  const first = channels[0];
  if (!first) return null;
  // Read once: the brand's labels and its next free slot both come from this row.
  const b = await loadBrand(app.db, actor, first.brand);
  const slot = await nextFreeSlot(app, actor, b);
  return {
    brands: [
      {
        id: b.id,
        name: b.name,
        slug: b.slug,
        timezone: b.timezone,
        next_slot: slot ? new Date(slot).toISOString() : null,
      },
    ],
    channels,
    media: [],
    templates: [],
  };
}

/** The form as the API's PostCreate input, or the problems that stop it from being one. */
function toInput(form: ComposeForm, lib: Library, chosen: Chosen) {
  const problems: Problem[] = [];
  const brand = formBrand({ brands: lib.brands, channels: lib.channels, form }) ?? lib.brands[0];
  if (form.channels.length === 0)
    problems.push(problem("no_channels", "Pick at least one channel.", "channels"));
  const tz = brand?.timezone ?? "UTC";
  let publishAt = form.when;
  if (form.when === "at") {
    const iso = localToIso(form.at, tz);
    if (iso === null) problems.push(problem("publish_at_invalid", "Pick a date and time.", "publish_at"));
    else publishAt = iso as typeof publishAt;
  }
  let publishBy: string | undefined;
  if (form.publish_by !== "") {
    const iso = localToIso(form.publish_by, tz);
    if (iso === null) problems.push(problem("publish_by_invalid", "Pick a date and time.", "publish_by"));
    else publishBy = iso;
  }
  if (chosen)
    for (const [field, message] of Object.entries(chosen.bad))
      problems.push(problem("data_invalid", message, `data.${field}`));
  const content = {
    brand: brand?.id ?? "",
    channels: form.channels,
    ...(chosen ? { template: chosen.id, data: chosen.data } : { content: { body: form.body } }),
    ...(Object.keys(form.fit).length ? { fit: form.fit } : {}),
    ...(form.media.length ? { media: form.media } : {}),
    ...(form.first_comment?.trim() ? { first_comment: form.first_comment.trim() } : {}),
  };
  return {
    content,
    input: { ...content, publish_at: publishAt, ...(publishBy ? { publish_by: publishBy } : {}) },
    problems,
  };
}

/** Problems by field; an Idempotency-Key problem is about the form as a whole, in a person's words. */
function byParam(problems: Problem[]): Problems {
  const out: Problems = {};
  for (const p of problems) {
    const reused = p.code === "idempotency_key_reused";
    const key = p.param === "Idempotency-Key" ? "" : (p.param ?? "");
    const message = reused
      ? "This form has already made a post. Open a new composer to write another."
      : p.message;
    out[key] = [...(out[key] ?? []), { code: p.code, message }];
  }
  return out;
}
const problemsOf = (e: ServiceError): Problem[] =>
  e.errors ?? [{ code: e.code, message: e.message, ...(e.param ? { param: e.param } : {}) }];

async function previewOf(w: Web, form: ComposeForm, lib: Library, chosen: Chosen): Promise<Preview> {
  if (form.channels.length === 0)
    return { kind: "empty", text: "Pick a channel to see what each network will receive." };
  if (!chosen && form.body.trim() === "" && form.media.length === 0)
    return { kind: "empty", text: "Start writing: each channel's post appears here as you type." };
  const { content, problems } = toInput(form, lib, chosen);
  if (problems.some((p) => p.param?.startsWith("data.")))
    return { kind: "problems", problems: problems.map((p) => ({ code: p.code, message: p.message })) };
  try {
    const p = await previewPost(w.app, w.member!.actor, content);
    return {
      kind: "ok",
      valid: p.valid,
      channels: p.renditions.map((r) => ({
        channel: r.channel,
        provider: r.provider,
        parts: r.parts,
        lengths: r.lengths,
        limit: r.limit,
        counting: r.counting,
        violations: r.violations.map((v) => ({ code: v.code, message: v.message, part: v.part ?? null })),
        notices: r.notices.map((n) => ({ code: n.code, message: n.message })),
      })),
    };
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return { kind: "problems", problems: problemsOf(e).map((p) => ({ code: p.code, message: p.message })) };
  }
}

async function page(
  w: Web,
  lib: Library,
  form: ComposeForm,
  problems: Problems | undefined,
  status = 200,
  chosen?: Chosen,
): Promise<Response> {
  const c = chosen === undefined ? await chosenTemplate(w, form) : chosen;
  return render(
    w,
    <ComposerPage
      f={frame(w, "New post", "compose")}
      {...lib}
      form={form}
      preview={await previewOf(w, form, lib, c)}
      problems={problems}
      dataFields={c ? c.fields : null}
    />,
    status,
  );
}

/** `?template=<id>` (from a template's page) opens the composer on that template. */
async function show(w: Web) {
  const form = emptyForm(newKey());
  form.template = w.url.searchParams.get("template") ?? "";
  return page(w, await library(w), form, undefined);
}

/**
 * htmx: the preview alone (with the schedule's brand-dependent labels out of band, and the text or the template's
 * data form when the template choice changed); else the whole page.
 */
async function preview(w: Web) {
  const form = readForm(w);
  const htmx = w.request.headers.get("hx-request") === "true";
  const content = w.request.headers.get("x-compose-content") === "1";
  // The form's text or template part is swapped in too (content): that needs the whole library.
  const lean = htmx && !content ? await previewLibrary(w, form.channels) : null;
  const lib = lean ?? (await library(w, htmx ? form.channels : undefined));
  const chosen = await chosenTemplate(w, form);
  if (!htmx) return page(w, lib, form, undefined, 200, chosen);
  const brand = formBrand({ ...lib, form });
  return fragment(
    w,
    <>
      <PreviewPanel preview={await previewOf(w, form, lib, chosen)} channels={lib.channels} />
      <NextSlot brand={brand} oob />
      <Zone brand={brand} id="at-zone" oob />
      <Zone brand={brand} id="by-zone" oob />
      {content ? (
        <ComposeContent
          f={frame(w, "New post", "compose")}
          {...lib}
          form={form}
          preview={{ kind: "empty", text: "" }}
          dataFields={chosen ? chosen.fields : null}
          oob
        />
      ) : null}
    </>,
  );
}

async function create(w: Web) {
  const form = readForm(w);
  const lib = await library(w);
  const chosen = await chosenTemplate(w, form);
  const made = toInput(form, lib, chosen);
  // "Save as draft": no time needed, and what breaks a rule is shown on the draft's page rather than refused.
  const draft = w.form.get("draft") === "1";
  const input = draft
    ? { ...made.content, draft: true, ...(form.when === "at" ? { publish_at: made.input.publish_at } : {}) }
    : made.input;
  const problems = made.problems;
  if (problems.length) return page(w, lib, form, byParam(problems), 422, chosen);
  const actor = w.member!.actor;
  try {
    // The person is the credential the key belongs to, as an API key is for the API.
    const made = await once(w.app, actor.userId!, form.key, ROUTE, input, 201, (answer) =>
      createPost(w.app, actor, input, answer),
    );
    const id = (made.body as { id: string }).id;
    setFlash(w, "post_created");
    return redirect(w, `/posts/${id}`);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, lib, form, byParam(problemsOf(e)), e.status, chosen);
  }
}

export const composerRoutes: WebRoute[] = [
  { method: "GET", path: "/posts/new", access: "member", org: "read", needs: "posts:write", handler: show },
  {
    method: "POST",
    path: "/posts/preview",
    access: "member",
    org: "read",
    needs: "posts:write",
    handler: preview,
  },
  {
    method: "POST",
    path: "/posts/new",
    access: "member",
    org: "write",
    needs: "posts:write",
    handler: create,
  },
];
