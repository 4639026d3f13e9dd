// /webhooks: the org's endpoints in this mode (create with the secret shown once, edit, disable and enable, roll
// the secret with an overlap, delete) and each endpoint's delivery log with its response excerpt and Resend.
// Thin over the same domain calls as /v1/webhook_endpoints and /v1/webhook_deliveries/<id>/resend.

import type { FieldErrors } from "../../../views/frame.ts";
import { type EndpointForm, WebhookPage, WebhooksPage } from "../../../views/webhooks.tsx";
import { EVENT_TYPES } from "../../domain/events/types.ts";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  rollEndpointSecret,
  updateEndpoint,
} from "../../domain/webhooks/service.ts";
import { ServiceError } from "../../lib/errors.ts";
import { cursorLinks, pagingQuery } from "./cursor.ts";
import { fieldErrors, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const emptyForm: EndpointForm = { url: "", description: "", events: ["*"] };

function formOf(w: Web): EndpointForm {
  const events = w.form.getAll("enabled_events").filter((e) => e !== "");
  return {
    url: (w.form.get("url") ?? "").trim(),
    description: w.form.get("description") ?? "",
    // Nothing ticked means every event, as the API's default is.
    events: events.length ? events : ["*"],
  };
}

/** A problem's param as the API names it (enabled_events.3) shown beside the field it is about. */
function errorsOf(e: ServiceError): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(fieldErrors(e))) {
    const key = k.split(".")[0] ?? "";
    out[key] = out[key] ? `${out[key]} ${v}` : v;
  }
  return out;
}

async function list(
  w: Web,
  extra: { form?: EndpointForm; errors?: FieldErrors; created?: { id: string; secret: string } } = {},
  status = 200,
) {
  const actor = w.member!.actor;
  const suspended = w.member!.org.status === "suspended";
  const endpoints = suspended ? [] : (await listEndpoints(w.app, actor, { limit: "100" })).data;
  return render(
    w,
    <WebhooksPage
      f={frame(w, "Webhooks", "webhooks")}
      endpoints={endpoints}
      types={[...EVENT_TYPES]}
      form={extra.form ?? emptyForm}
      errors={extra.errors}
      created={extra.created ?? null}
    />,
    status,
  );
}

async function create(w: Web) {
  const form = formOf(w);
  try {
    const ep = await createEndpoint(w.app, w.member!.actor, {
      url: form.url,
      description: form.description,
      enabled_events: form.events,
    });
    return list(w, { created: { id: ep.id, secret: ep.secret! } }, 201);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500) throw e;
    return list(w, { form, errors: errorsOf(e) }, e.status);
  }
}

async function detail(
  w: Web,
  extra: { form?: EndpointForm; errors?: FieldErrors; secret?: string; resendError?: FieldErrors } = {},
  status = 200,
) {
  const actor = w.member!.actor;
  const id = w.params.id ?? "";
  const ep = await getEndpoint(w.app, actor, id);
  const q = w.url.searchParams;
  let deliveries: Awaited<ReturnType<typeof listDeliveries>>["data"] = [];
  let cursors = { older: null as string | null, newer: null as string | null };
  let pagingError: FieldErrors | undefined;
  try {
    const env = await listDeliveries(w.app, actor, ep.id, { limit: "20", ...pagingQuery(q) });
    deliveries = env.data;
    cursors = cursorLinks(`/webhooks/${ep.id}`, {}, q, deliveries, env.has_more);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500) throw e;
    pagingError = fieldErrors(e);
    status = e.status;
  }
  return render(
    w,
    <WebhookPage
      f={frame(w, "Webhook endpoint", "webhooks")}
      endpoint={ep}
      types={[...EVENT_TYPES]}
      form={extra.form ?? { url: ep.url, description: ep.description, events: ep.enabled_events }}
      errors={extra.errors ?? extra.resendError ?? pagingError}
      secret={extra.secret ?? null}
      deliveries={deliveries}
      older={cursors.older}
      newer={cursors.newer}
    />,
    status,
  );
}

async function edit(w: Web) {
  const form = formOf(w);
  try {
    await updateEndpoint(w.app, w.member!.actor, w.params.id ?? "", {
      url: form.url,
      description: form.description,
      enabled_events: form.events,
    });
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status === 404 || e.status >= 500) throw e;
    return detail(w, { form, errors: errorsOf(e) }, e.status);
  }
  setFlash(w, "webhook_saved");
  return redirect(w, `/webhooks/${w.params.id}`);
}

function toggle(disabled: boolean) {
  return async (w: Web) => {
    await updateEndpoint(w.app, w.member!.actor, w.params.id ?? "", { disabled });
    setFlash(w, disabled ? "webhook_disabled" : "webhook_enabled");
    return redirect(w, `/webhooks/${w.params.id}`);
  };
}

async function roll(w: Web) {
  const raw = w.form.get("overlap_hours") ?? "24";
  try {
    const overlap = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
    const ep = await rollEndpointSecret(w.app, w.member!.actor, w.params.id ?? "", {
      overlap_hours: overlap,
    });
    return detail(w, { secret: ep.secret! });
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status === 404 || e.status >= 500) throw e;
    return detail(w, { errors: errorsOf(e) }, e.status);
  }
}

async function remove(w: Web) {
  await deleteEndpoint(w.app, w.member!.actor, w.params.id ?? "");
  setFlash(w, "webhook_deleted");
  return redirect(w, "/webhooks");
}

async function resend(w: Web) {
  const d = await resendDelivery(w.app, w.member!.actor, w.params.id ?? "");
  setFlash(w, "delivery_resent");
  return redirect(w, `/webhooks/${d.endpoint}`);
}

const member = { access: "member" as const };
export const webhookPageRoutes: WebRoute[] = [
  {
    method: "GET",
    path: "/webhooks",
    ...member,
    org: "read",
    needs: "webhooks:read",
    handler: (w) => list(w),
  },
  { method: "POST", path: "/webhooks", ...member, org: "write", needs: "webhooks:write", handler: create },
  {
    method: "GET",
    path: "/webhooks/:id",
    ...member,
    org: "read",
    needs: "webhooks:read",
    handler: (w) => detail(w),
  },
  { method: "POST", path: "/webhooks/:id", ...member, org: "write", needs: "webhooks:write", handler: edit },
  {
    method: "POST",
    path: "/webhooks/:id/disable",
    ...member,
    org: "write",
    needs: "webhooks:write",
    handler: toggle(true),
  },
  {
    method: "POST",
    path: "/webhooks/:id/enable",
    ...member,
    org: "write",
    needs: "webhooks:write",
    handler: toggle(false),
  },
  {
    method: "POST",
    path: "/webhooks/:id/roll",
    ...member,
    org: "write",
    needs: "webhooks:write",
    handler: roll,
  },
  {
    method: "POST",
    path: "/webhooks/:id/delete",
    ...member,
    org: "write",
    needs: "webhooks:write",
    handler: remove,
  },
  {
    method: "POST",
    path: "/webhook-deliveries/:id/resend",
    ...member,
    org: "write",
    needs: "webhooks:write",
    handler: resend,
  },
];
