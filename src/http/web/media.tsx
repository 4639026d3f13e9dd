// /media: the media library of this mode (listMedia, as GET /v1/media), uploads (uploadMedia, as POST /v1/media:
// the multipart body is read as it arrives, never through the dashboard's 64 KiB form reader), thumbnails
// (mediaThumbnail), alt text (updateMedia) and deletion (deleteMedia, media_in_use beside the medium). An upload
// sent by static/upload.js asks for JSON and gets the medium or the problem; a plain form gets the page again.
import type { FieldErrors } from "../../../views/frame.ts";
import { MediaPage, type MediaProps } from "../../../views/media.tsx";
import { listBrands } from "../../domain/brands/service.ts";
import { uploadMedia } from "../../domain/media/create.ts";
import { deleteMedia, listMedia, updateMedia } from "../../domain/media/service.ts";
import { mediaThumbnail } from "../../domain/media/thumbnail.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, json, pageHeaders, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

async function page(w: Web, errors?: MediaProps["errors"], status = 200) {
  const actor = w.member!.actor;
  const f = frame(w, "Media library", "media");
  const canWrite = actor.scopes.has("posts:write");
  const brand = w.url.searchParams.get("brand") ?? "";
  if (w.member!.org.status === "suspended")
    return render(w, <MediaPage f={f} brands={[]} brand="" media={[]} older={null} canWrite={canWrite} />);
  const after = w.url.searchParams.get("starting_after");
  const [brands, media] = await Promise.all([
    listBrands(w.app, actor, { limit: "100" }),
    listMedia(w.app, actor, {
      limit: "48",
      ...(brand ? { brand } : {}),
      ...(after ? { starting_after: after } : {}),
    }),
  ]);
  const sorted = [...brands.data].sort((a, b) => a.name.localeCompare(b.name));
  return render(
    w,
    <MediaPage
      f={f}
      brands={sorted}
      brand={brand}
      media={media.data}
      older={media.has_more ? (media.data.at(-1)?.id ?? null) : null}
      canWrite={canWrite}
      errors={errors}
    />,
    status,
  );
}

const wantsJson = (w: Web) => (w.request.headers.get("accept") ?? "").includes("application/json");

async function upload(w: Web) {
  try {
    const m = await uploadMedia(w.app, w.member!.actor, w.request);
    if (wantsJson(w)) return json(w, 201, m);
    setFlash(w, "media_uploaded");
    return redirect(w, `/media?brand=${encodeURIComponent(m.brand)}`);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500) throw e;
    const problems = e.errors ?? [
      { code: e.code, message: e.message, ...(e.param ? { param: e.param } : {}) },
    ];
    if (wantsJson(w)) return json(w, e.status, { code: e.code, message: e.message, errors: problems });
    const errors: FieldErrors = {};
    for (const [k, v] of Object.entries(fieldErrors(e))) {
      const key = k === "alt" || k === "file" ? k : "";
      errors[key] = errors[key] ? `${errors[key]} ${v}` : v;
    }
    return page(w, { form: "upload", errors }, e.status);
  }
}

async function thumb(w: Web) {
  const t = await mediaThumbnail(w.app, w.member!.actor, w.params.id ?? "");
  if (!t) return new Response(null, { status: 404, headers: pageHeaders(w.requestId) });
  return new Response(t.bytes, {
    headers: pageHeaders(w.requestId, { "Content-Type": t.type, "Cache-Control": "private, max-age=3600" }),
  });
}

async function saveAlt(w: Web) {
  const id = w.params.id ?? "";
  const alt = w.form.get("alt") ?? "";
  try {
    await updateMedia(w.app, w.member!.actor, id, { alt: alt.trim() });
    setFlash(w, "media_saved");
    return redirect(w, `/media#media-${id}`);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 404 || e.status === 403) throw e;
    return page(w, { form: id, errors: fieldErrors(e), alt }, e.status);
  }
}

async function remove(w: Web) {
  const id = w.params.id ?? "";
  try {
    await deleteMedia(w.app, w.member!.actor, id);
    setFlash(w, "media_deleted");
    return redirect(w, "/media");
  } catch (e) {
    if (!(e instanceof ServiceError) || e.code !== "media_in_use") throw e;
    return page(w, { form: id, errors: { "": `${e.message} Cancel or finish that post first.` } }, e.status);
  }
}

const write = { access: "member", org: "write", needs: "posts:write" } as const;

export const mediaRoutes: WebRoute[] = [
  { method: "GET", path: "/media", access: "member", org: "read", handler: (w) => page(w) },
  { method: "POST", path: "/media/upload", ...write, rawBody: true, handler: upload },
  { method: "GET", path: "/media/:id/thumb", access: "member", org: "read", handler: thumb },
  { method: "POST", path: "/media/:id/alt", ...write, handler: saveAlt },
  { method: "POST", path: "/media/:id/delete", ...write, handler: remove },
];
