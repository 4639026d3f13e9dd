// The brand page's client review links: make one (createReviewLink, as POST /v1/review_links; its address is
// rendered in the answer, never stored or redirected through) and withdraw one (as POST .../withdraw).
import { createReviewLink } from "../../domain/review-links/create.ts";
import { withdrawReviewLink } from "../../domain/review-links/withdraw.ts";
import { ServiceError } from "../../lib/errors.ts";
import { edit } from "./brands.tsx";
import { fieldErrors, redirect, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const DAYS = new Set(["1", "7", "14", "30"]);

async function create(w: Web) {
  const name = w.form.get("name") ?? "";
  const days = w.form.get("days") ?? "30";
  try {
    const expires = DAYS.has(days) ? w.app.clock.now() + Number(days) * 86400_000 : Number.NaN;
    const link = await createReviewLink(w.app, w.member!.actor, {
      brand: w.params.id ?? "",
      name,
      // 30 days is the default and the most a link may have: left to the domain, so it is not a moment late.
      ...(days === "30" || Number.isNaN(expires) ? {} : { expires_at: new Date(expires).toISOString() }),
    });
    return edit(w, undefined, undefined, 200, { created: { name: link.name, url: link.url! } });
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 403 || e.status === 404) throw e;
    return edit(w, undefined, undefined, e.status, { errors: fieldErrors(e), name });
  }
}

async function withdraw(w: Web) {
  await withdrawReviewLink(w.app, w.member!.actor, w.params.lid ?? "");
  setFlash(w, "review_link_withdrawn");
  return redirect(w, `/brands/${w.params.id}#review-links`);
}

const write = { access: "member", org: "write", needs: "posts:approve" } as const;

export const reviewLinkPageRoutes: WebRoute[] = [
  { method: "POST", path: "/brands/:id/review-links", ...write, handler: create },
  { method: "POST", path: "/brands/:id/review-links/:lid/withdraw", ...write, handler: withdraw },
];
