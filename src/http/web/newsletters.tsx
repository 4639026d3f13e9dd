// /newsletters: the issues of this mode (filter by brand and status) and an issue's editor with its preview, its
// actions as its status allows, its timeline and its results. Thin over the same use cases as /v1/newsletters;
// those load on first use (markdown-it and the providers are not needed at start).

import type { FieldErrors } from "../../../views/frame.ts";
import {
  type IssueForm,
  IssuePage,
  NewslettersPage,
  type NlAccount,
  type NlBrand,
  type NlPreview,
  PreviewPane,
} from "../../../views/newsletters.tsx";
import { listBrands } from "../../domain/brands/service.ts";
import { ServiceError } from "../../lib/errors.ts";
import { once } from "../../lib/once.ts";
import { localParts } from "../../lib/zoned.ts";
import { cursorLinks, pagingQuery } from "./cursor.ts";
import { localToIso } from "./local-time.ts";
import { CSP, fieldErrors, fragment, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const load = {
  list: once(() => import("../../domain/newsletters/list.ts")),
  get: once(() => import("../../domain/newsletters/get.ts")),
  create: once(() => import("../../domain/newsletters/create.ts")),
  update: once(() => import("../../domain/newsletters/update.ts")),
  preview: once(() => import("../../domain/newsletters/preview.ts")),
  schedule: once(() => import("../../domain/newsletters/schedule.ts")),
  unschedule: once(() => import("../../domain/newsletters/unschedule.ts")),
  cancel: once(() => import("../../domain/newsletters/cancel.ts")),
  review: once(() => import("../../domain/newsletters/review.ts")),
  test: once(() => import("../../domain/newsletters/send-test.ts")),
  timeline: once(() => import("../../domain/newsletters/timeline.ts")),
  accounts: once(() => import("../../domain/mail-accounts/list.ts")),
  audiences: once(() => import("../../domain/mail-accounts/audiences.ts")),
};

/**
 * The editor's policy: the dashboard's, with inline styles allowed. An iframe's srcdoc document inherits the page's
 * policy, and an email is styled inline (mail clients take nothing else), so without this the preview would show
 * unstyled. Scripts stay refused (the frame is sandboxed besides), and nothing people typed reaches the page as
 * markup, so no one can write a style attribute into the dashboard itself.
 */
const EDITOR_CSP = {
  "Content-Security-Policy": CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
};

/**
 * A ServiceError shown on the page beside the fields: one the person can act on, or a provider or mail service that
 * cannot be reached now (503: try again later), rather than a missing issue (404) or a fault of ours.
 */
const shownError = (e: unknown): e is ServiceError =>
  e instanceof ServiceError && e.status !== 404 && (e.status < 500 || e.status === 503);

/** A problem's param as the API names it (deliveries.0.audiences.1) shown beside the field it is about. */
function errorsOf(e: ServiceError): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(fieldErrors(e))) {
    const key = k.split(".")[0] ?? "";
    out[key] = out[key] ? `${out[key]} ${v}` : v;
  }
  return out;
}

async function brandsOf(w: Web): Promise<NlBrand[]> {
  const all = await listBrands(w.app, w.member!.actor, { limit: "100" });
  return all.data
    .map((b) => ({ id: b.id, name: b.name, slug: b.slug, timezone: b.timezone }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The brand's mail accounts with their audiences read from each provider (null when a provider cannot say now). */
async function accountsOf(w: Web, brand: string): Promise<NlAccount[]> {
  const actor = w.member!.actor;
  if (!brand || !actor.scopes.has("channels:read")) return [];
  const list = await (await load.accounts()).listMailAccounts(w.app, actor, { brand, limit: "100" });
  const { listAudiences } = await load.audiences();
  return Promise.all(
    list.data.map(async (a) => {
      let audiences: NlAccount["audiences"] = null;
      try {
        audiences = (await listAudiences(w.app, actor, a.id)).data.map((x) => ({
          id: x.id,
          name: x.name,
          size: x.size ?? null,
        }));
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
      }
      return {
        id: a.id,
        display_name: a.display_name,
        provider: a.provider,
        from_name: a.from_name,
        from_email: a.from_email,
        status: a.status,
        default_audiences: a.default_audiences,
        audiences,
      };
    }),
  );
}

function formOf(w: Web): IssueForm {
  const f = w.form;
  const deliveries: Record<string, string[]> = {};
  for (const id of f.getAll("deliver")) if (id) deliveries[id] = f.getAll(`audiences.${id}`).filter(Boolean);
  return {
    brand: f.get("brand") ?? "",
    subject: f.get("subject") ?? "",
    preview_text: f.get("preview_text") ?? "",
    body: f.get("body") ?? "",
    deliveries,
  };
}

/** The form's deliveries as the API takes them: no audience ticked leaves the account's defaults. */
const deliveriesInput = (form: IssueForm) =>
  Object.entries(form.deliveries).map(([mail_account, audiences]) =>
    audiences.length ? { mail_account, audiences } : { mail_account },
  );

/** A UTC time as the brand's datetime-local value. */
function localValue(iso: string | null, tz: string): string {
  if (!iso) return "";
  const p = localParts(Date.parse(iso), tz);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

async function list(w: Web) {
  const actor = w.member!.actor;
  const q = w.url.searchParams;
  const filter = { brand: q.get("brand") ?? "", status: q.get("status") ?? "" };
  const brands = w.member!.org.status === "suspended" ? [] : await brandsOf(w);
  let issues: Awaited<ReturnType<Awaited<ReturnType<typeof load.list>>["listIssues"]>>["data"] = [];
  let cursors = { older: null as string | null, newer: null as string | null };
  let errors: FieldErrors | undefined;
  let status = 200;
  try {
    const query: Record<string, string> = { limit: "50", ...pagingQuery(q) };
    if (filter.brand) query.brand = filter.brand;
    if (filter.status) query.status = filter.status;
    const env = await (await load.list()).listIssues(w.app, actor, query);
    issues = env.data;
    const keep: Record<string, string> = {};
    if (filter.brand) keep.brand = filter.brand;
    if (filter.status) keep.status = filter.status;
    cursors = cursorLinks("/newsletters", keep, q, issues, env.has_more);
  } catch (e) {
    if (!shownError(e)) throw e;
    errors = fieldErrors(e);
    status = e.status;
  }
  return render(
    w,
    <NewslettersPage
      f={frame(w, "Newsletters", "newsletters")}
      issues={issues}
      brands={brands}
      filter={filter}
      errors={errors}
      older={cursors.older}
      newer={cursors.newer}
    />,
    status,
  );
}

interface EditorExtra {
  form?: IssueForm;
  errors?: FieldErrors;
  preview?: NlPreview | null;
  previewError?: string | null;
  sendAtLocal?: string;
  testTo?: string;
  flash?: string;
}

/** The preview of content not saved, or its problem's message. */
async function previewOf(
  w: Web,
  form: IssueForm,
): Promise<{ preview: NlPreview | null; error: string | null }> {
  if (!form.subject.trim() || !form.body.trim()) return { preview: null, error: null };
  const first = Object.keys(form.deliveries)[0];
  try {
    const p = await (await load.preview()).previewContent(w.app, w.member!.actor, {
      brand: form.brand,
      subject: form.subject,
      preview_text: form.preview_text,
      body: form.body,
      ...(first ? { mail_account: first } : {}),
    });
    return { preview: { html: p.html, text: p.text, links: p.links }, error: null };
  } catch (e) {
    if (!shownError(e)) throw e;
    return { preview: null, error: e.message };
  }
}

async function newPage(w: Web, extra: EditorExtra = {}, status = 200) {
  const brands = await brandsOf(w);
  const wanted = extra.form?.brand || w.url.searchParams.get("brand") || "";
  const brand = brands.find((b) => b.id === wanted || b.slug === wanted) ?? brands[0] ?? null;
  const form: IssueForm = extra.form ?? {
    brand: brand?.id ?? "",
    subject: "",
    preview_text: "",
    body: "",
    deliveries: {},
  };
  form.brand = brand?.id ?? form.brand;
  return render(
    w,
    <IssuePage
      f={frame(w, "New newsletter issue", "newsletters")}
      issue={null}
      brand={brand}
      brands={brands}
      accounts={brand ? await accountsOf(w, brand.id) : []}
      form={form}
      errors={extra.errors}
      preview={extra.preview ?? null}
      previewError={extra.previewError ?? null}
      timeline={[]}
      sendAtLocal=""
      testTo=""
    />,
    status,
    EDITOR_CSP,
  );
}

async function issuePage(w: Web, extra: EditorExtra = {}, status = 200) {
  const actor = w.member!.actor;
  const issue = await (await load.get()).getIssue(w.app, actor, w.params.id ?? "");
  const [brands, timeline] = await Promise.all([
    brandsOf(w),
    (await load.timeline()).issueTimeline(w.app, actor, issue.id),
  ]);
  const brand = brands.find((b) => b.id === issue.brand) ?? null;
  const form: IssueForm = extra.form ?? {
    brand: issue.brand,
    subject: issue.subject,
    preview_text: issue.preview_text,
    body: issue.body,
    deliveries: Object.fromEntries(issue.deliveries.map((d) => [d.mail_account, d.audiences])),
  };
  let preview = extra.preview ?? null;
  let previewError = extra.previewError ?? null;
  if (!extra.form) {
    try {
      const p = await (await load.preview()).previewIssue(w.app, actor, issue.id, {});
      preview = { html: p.html, text: p.text, links: p.links };
    } catch (e) {
      if (!shownError(e)) throw e;
      previewError = e.message;
    }
  }
  const tz = brand?.timezone ?? "UTC";
  return render(
    w,
    <IssuePage
      f={frame(w, issue.subject, "newsletters")}
      issue={issue}
      brand={brand}
      brands={brands}
      accounts={await accountsOf(w, issue.brand)}
      form={form}
      errors={extra.errors}
      preview={preview}
      previewError={previewError}
      timeline={timeline}
      sendAtLocal={extra.sendAtLocal ?? localValue(issue.send_at, tz)}
      testTo={extra.testTo ?? ""}
      flash={extra.flash ?? null}
    />,
    status,
    EDITOR_CSP,
  );
}

async function create(w: Web) {
  const form = formOf(w);
  if (w.form.get("do") === "preview") {
    const p = await previewOf(w, form);
    return newPage(w, { form, preview: p.preview, previewError: p.error });
  }
  try {
    const made = await (await load.create()).createIssue(w.app, w.member!.actor, {
      brand: form.brand,
      subject: form.subject,
      preview_text: form.preview_text,
      body: form.body,
      deliveries: deliveriesInput(form),
    });
    setFlash(w, "issue_saved");
    return redirect(w, `/newsletters/${made.id}`);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500) throw e;
    return newPage(w, { form, errors: errorsOf(e) }, e.status);
  }
}

async function save(w: Web) {
  const form = formOf(w);
  if (w.form.get("do") === "preview") {
    // The brand is the issue's, whatever the form says.
    const issue = await (await load.get()).getIssue(w.app, w.member!.actor, w.params.id ?? "");
    form.brand = issue.brand;
    const p = await previewOf(w, form);
    return issuePage(w, { form, preview: p.preview, previewError: p.error });
  }
  try {
    await (await load.update()).updateIssue(w.app, w.member!.actor, w.params.id ?? "", {
      subject: form.subject,
      preview_text: form.preview_text,
      body: form.body,
      deliveries: deliveriesInput(form),
    });
  } catch (e) {
    if (!shownError(e)) throw e;
    return issuePage(w, { form, errors: errorsOf(e) }, e.status);
  }
  setFlash(w, "issue_saved");
  return redirect(w, `/newsletters/${w.params.id}`);
}

/** htmx's live preview: the preview pane alone, for the content as typed (nothing saved). */
async function preview(w: Web) {
  const form = formOf(w);
  const p = await previewOf(w, form);
  return fragment(w, <PreviewPane preview={p.preview} error={p.error} />);
}

async function schedule(w: Web) {
  const actor = w.member!.actor;
  const id = w.params.id ?? "";
  const raw = w.form.get("send_at") ?? "";
  try {
    const issue = await (await load.get()).getIssue(w.app, actor, id);
    const brand = (await brandsOf(w)).find((b) => b.id === issue.brand);
    // A value that is not a datetime-local goes to the domain as typed, which names the problem (send_at_invalid).
    const sendAt = localToIso(raw, brand?.timezone ?? "UTC") ?? raw;
    await (await load.schedule()).scheduleIssue(w.app, actor, id, { send_at: sendAt });
  } catch (e) {
    if (!shownError(e)) throw e;
    return issuePage(w, { errors: errorsOf(e), sendAtLocal: raw }, e.status);
  }
  setFlash(w, "issue_scheduled");
  return redirect(w, `/newsletters/${id}`);
}

type Step = (w: Web, id: string) => Promise<unknown>;

function step(run: Step, flash: Parameters<typeof setFlash>[1]) {
  return async (w: Web) => {
    const id = w.params.id ?? "";
    try {
      await run(w, id);
    } catch (e) {
      if (!shownError(e)) throw e;
      return issuePage(w, { errors: errorsOf(e) }, e.status);
    }
    setFlash(w, flash);
    return redirect(w, `/newsletters/${id}`);
  };
}

const note = (w: Web) => ({ note: w.form.get("note") ?? "" });

async function sendTest(w: Web) {
  const id = w.params.id ?? "";
  const raw = w.form.get("to") ?? "";
  const to = raw
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    const r = await (await load.test()).sendTest(w.app, w.member!.actor, id, {
      mail_account: w.form.get("mail_account") ?? "",
      to,
    });
    return issuePage(w, {
      flash: `Test sent to ${r.sent} address${r.sent === 1 ? "" : "es"}, marked [Test]. The addresses are not kept.`,
    });
  } catch (e) {
    if (!shownError(e)) throw e;
    return issuePage(w, { errors: errorsOf(e), testTo: raw }, e.status);
  }
}

const read = { access: "member" as const, org: "read" as const, needs: "newsletters:read" as const };
const write = { access: "member" as const, org: "write" as const, needs: "newsletters:write" as const };
const review = { access: "member" as const, org: "write" as const, needs: "posts:approve" as const };

export const newsletterPageRoutes: WebRoute[] = [
  { method: "GET", path: "/newsletters", ...read, handler: list },
  { method: "GET", path: "/newsletters/new", ...write, handler: (w) => newPage(w) },
  { method: "POST", path: "/newsletters", ...write, handler: create },
  { method: "POST", path: "/newsletters/preview", ...read, org: "write", handler: preview },
  { method: "GET", path: "/newsletters/:id", ...read, handler: (w) => issuePage(w) },
  { method: "POST", path: "/newsletters/:id", ...write, handler: save },
  { method: "POST", path: "/newsletters/:id/schedule", ...write, handler: schedule },
  {
    method: "POST",
    path: "/newsletters/:id/unschedule",
    ...write,
    handler: step(
      async (w, id) => (await load.unschedule()).unscheduleIssue(w.app, w.member!.actor, id),
      "issue_unscheduled",
    ),
  },
  {
    method: "POST",
    path: "/newsletters/:id/cancel",
    ...write,
    handler: step(
      async (w, id) => (await load.cancel()).cancelIssue(w.app, w.member!.actor, id),
      "issue_canceled",
    ),
  },
  {
    method: "POST",
    path: "/newsletters/:id/approve",
    ...review,
    handler: step(
      async (w, id) => (await load.review()).approveIssue(w.app, w.member!.actor, id, note(w)),
      "issue_approved",
    ),
  },
  {
    method: "POST",
    path: "/newsletters/:id/reject",
    ...review,
    handler: step(
      async (w, id) => (await load.review()).rejectIssue(w.app, w.member!.actor, id, note(w)),
      "issue_rejected",
    ),
  },
  { method: "POST", path: "/newsletters/:id/test", ...write, handler: sendTest },
];
