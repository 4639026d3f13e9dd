// /reports: one brand's month (the same report as GET /v1/reports) with a brand and month picker; admins and
// owners also create and withdraw its share links and edit the monthly email's recipients there. The report
// email's unsubscribe page (GET and POST /reports/unsubscribe/:token) asks first, as the notification one does.

import type { FieldErrors } from "../../../views/frame.ts";
import { ReportPage, ReportUnsubscribePage } from "../../../views/reports.tsx";
import { listBrands } from "../../domain/brands/service.ts";
import { addRecipient } from "../../domain/reports/add-recipient.ts";
import { getReport } from "../../domain/reports/get.ts";
import { listRecipients } from "../../domain/reports/list-recipients.ts";
import { listShareLinks } from "../../domain/reports/list-shares.ts";
import { lastMonth } from "../../domain/reports/period.ts";
import { removeRecipient } from "../../domain/reports/remove-recipient.ts";
import { shareReport } from "../../domain/reports/share.ts";
import { unshareReport } from "../../domain/reports/unshare.ts";
import { describeRecipientUnsubscribe, unsubscribeRecipient } from "../../domain/reports/unsubscribe.ts";
import { type Role, scopesOfRole } from "../../domain/scopes.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, redirect, render, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

async function page(
  w: Web,
  pick: { brand?: string | null; month?: string | null } = {},
  extra: { created?: { url: string }; errors?: FieldErrors } = {},
  status = 200,
) {
  const m = w.member!;
  const actor = m.actor;
  const brands = (await listBrands(w.app, actor, { limit: "100" })).data;
  const brandRef = pick.brand ?? w.url.searchParams.get("brand") ?? brands[0]?.id ?? null;
  const brand = brands.find((b) => b.id === brandRef || b.slug === brandRef) ?? brands[0];
  const f = frame(w, "Reports", "reports");
  if (!brand)
    return render(
      w,
      <ReportPage
        f={f}
        brands={[]}
        brandId=""
        month=""
        report={null}
        error="This org has no brand yet."
        admin={false}
        links={[]}
        created={null}
        recipients={[]}
      />,
      status,
    );
  const month = pick.month ?? w.url.searchParams.get("month") ?? lastMonth(w.app.clock.now(), brand.timezone);
  let report = null;
  let error: string | undefined;
  try {
    report = await getReport(w.app, actor, { brand: brand.id, month });
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500) throw e;
    error = e.message;
  }
  const admin = scopesOfRole(m.org.role as Role).has("brands:write") && m.org.status === "active";
  const [links, recipients] = admin
    ? await Promise.all([
        listShareLinks(w.app, actor, { brand: brand.id, limit: "20" }).then((l) => l.data),
        listRecipients(w.app, actor, brand.id).then((l) => l.data),
      ])
    : [[], []];
  return render(
    w,
    <ReportPage
      f={f}
      brands={brands}
      brandId={brand.id}
      month={month}
      report={report}
      error={error}
      admin={admin}
      links={links}
      created={extra.created ?? null}
      recipients={recipients}
      errors={extra.errors}
    />,
    status,
  );
}

const back = (w: Web) =>
  `/reports?brand=${encodeURIComponent(w.form.get("brand") ?? "")}&month=${encodeURIComponent(w.form.get("month") ?? "")}`;

async function share(w: Web) {
  const brand = w.form.get("brand") ?? "";
  const month = w.form.get("month") ?? "";
  try {
    const link = await shareReport(w.app, w.member!.actor, { brand, month });
    return page(w, { brand, month }, { created: { url: link.url! } }, 201);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500) throw e;
    return page(w, { brand, month }, { errors: fieldErrors(e) }, e.status);
  }
}

async function withdraw(w: Web) {
  const link = await unshareReport(w.app, w.member!.actor, w.params.id ?? "");
  return redirect(
    w,
    `/reports?brand=${link.brand}&month=${encodeURIComponent(w.form.get("month") ?? link.month)}`,
  );
}

async function addAddress(w: Web) {
  const brand = w.form.get("brand") ?? "";
  try {
    await addRecipient(w.app, w.member!.actor, brand, { email: w.form.get("email") ?? "" });
    return redirect(w, back(w));
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500) throw e;
    const errors = fieldErrors(e);
    // A problem about the list as a whole (the limit, the address there already) is shown by the field too.
    return page(
      w,
      { brand, month: w.form.get("month") },
      { errors: { email: Object.values(errors).join(" ") } },
      e.status,
    );
  }
}

async function removeAddress(w: Web) {
  await removeRecipient(w.app, w.member!.actor, w.form.get("brand") ?? "", w.form.get("email") ?? "");
  return redirect(w, back(w));
}

async function unsubscribePage(w: Web) {
  const f = frame(w, "Monthly report email");
  try {
    const d = await describeRecipientUnsubscribe(w.app, w.params.token ?? "");
    return render(w, <ReportUnsubscribePage f={f} state="ask" email={d.email} brandName={d.brandName} />);
  } catch (e) {
    if (e instanceof ServiceError && e.code === "unsubscribe_link_invalid")
      return render(w, <ReportUnsubscribePage f={f} state="invalid" message={e.message} />, 404);
    throw e;
  }
}

async function unsubscribeNow(w: Web) {
  const f = frame(w, "Monthly report email");
  try {
    const d = await describeRecipientUnsubscribe(w.app, w.params.token ?? "");
    await unsubscribeRecipient(w.app, w.params.token ?? "");
    return render(w, <ReportUnsubscribePage f={f} state="done" brandName={d.brandName} />);
  } catch (e) {
    if (e instanceof ServiceError && e.code === "unsubscribe_link_invalid")
      return render(w, <ReportUnsubscribePage f={f} state="invalid" message={e.message} />, 404);
    throw e;
  }
}

export const reportPageRoutes: WebRoute[] = [
  {
    method: "GET",
    path: "/reports",
    access: "member",
    org: "read",
    needs: "brands:read",
    handler: (w) => page(w),
  },
  {
    method: "POST",
    path: "/reports/share",
    access: "member",
    org: "write",
    needs: "brands:write",
    handler: share,
  },
  {
    method: "POST",
    path: "/reports/share/:id/withdraw",
    access: "member",
    org: "write",
    needs: "brands:write",
    handler: withdraw,
  },
  {
    method: "POST",
    path: "/reports/recipients",
    access: "member",
    org: "write",
    needs: "brands:write",
    handler: addAddress,
  },
  {
    method: "POST",
    path: "/reports/recipients/remove",
    access: "member",
    org: "write",
    needs: "brands:write",
    handler: removeAddress,
  },
  { method: "GET", path: "/reports/unsubscribe/:token", access: "guest", handler: unsubscribePage },
  { method: "POST", path: "/reports/unsubscribe/:token", access: "guest", handler: unsubscribeNow },
];
