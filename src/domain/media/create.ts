// POST /v1/media: a multipart upload (part `file`) or a JSON {url} fetched through the guarded client. The type
// is decided by the bytes; an image is decoded for its displayed size, a video's index is read from the bucket.
// The row, its database copy (when not in a bucket) and the audit row are written in one transaction; a bucket
// object whose row is refused is removed again.
import type { App } from "../../app/context.ts";
import { nodeCrypto } from "../../crypto/node.ts";
import type { MediaTable } from "../../db/tables/media.ts";
import { badRequest, invalid, problem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { guardedRequest, OutboundError, parseOutboundUrl } from "../../net/guarded.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { webhookAllow } from "../webhooks/allow.ts";
import { MAX_IMAGE_BYTES, readMultipart, tooLarge, type UploadedFile } from "./multipart.ts";
import { presentMedia } from "./present.ts";
import { IndexTooLarge, MAX_INDEX_SAMPLES, probeVideo } from "./probe.ts";
import { MAX_ALT, MediaFromUrl } from "./schema.ts";
import { imageInfo, imagePixels, MAX_IMAGE_PIXELS, sniff } from "./sniff.ts";
import { deleteObject, placeBytes, readRange, writeBlob } from "./storage.ts";

const FETCH_TIMEOUT_MS = 30_000;

/** A multipart upload, read as it arrives (a video is streamed into the bucket, never held). */
export async function uploadMedia(app: App, actor: Actor, request: Request) {
  requireScope(actor, "posts:write");
  const id = newId("media", app.clock.now());
  const form = await readMultipart(app, request, { orgId: actor.orgId, mediaId: id });
  try {
    if (!form.file) throw badRequest("file_missing", "The form has no part named file.", "file");
    return await store(app, actor, id, form.fields, form.file);
  } catch (e) {
    if (form.file?.object)
      await deleteObject(app, {
        storage: "s3",
        bucket: form.file.object.bucket,
        object_key: form.file.object.key,
      }).catch(() => {});
    throw e;
  }
}

/** JSON {brand, url, alt}: an image fetched through the guarded client (SVC_ALLOW_PRIVATE_WEBHOOKS applies). */
export async function createMediaFromUrl(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "posts:write");
  const b = parse(MediaFromUrl, input);
  await loadBrand(app.db, actor, b.brand);
  let url: URL;
  try {
    url = parseOutboundUrl(b.url);
  } catch (e) {
    throw invalid([problem("url_invalid", `url: ${(e as Error).message}.`, "url")]);
  }
  let res: Awaited<ReturnType<typeof guardedRequest>>;
  try {
    res = await guardedRequest({
      url,
      allow: webhookAllow(app),
      followRedirects: true,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxResponseBytes: MAX_IMAGE_BYTES + 1,
      headers: { accept: "image/*", "user-agent": "svc-media-fetch" },
    });
  } catch (e) {
    if (e instanceof OutboundError && (e.kind === "invalid_url" || e.kind === "blocked_address"))
      throw invalid([problem("url_invalid", `url: ${e.message}.`, "url")]);
    throw invalid([problem("url_unreachable", `url could not be fetched: ${(e as Error).message}.`, "url")]);
  }
  if (res.status < 200 || res.status > 299)
    throw invalid([problem("url_unreachable", `url answered HTTP ${res.status}.`, "url")]);
  if (res.truncated) throw tooLarge(MAX_IMAGE_BYTES, "An image");
  if (res.body.byteLength === 0) throw invalid([problem("media_empty", "url returned no bytes.", "url")]);
  const sniffed = await sniff(res.body.subarray(0, 4100));
  if (sniffed.kind === "video")
    throw invalid([
      problem(
        "media_type_unsupported",
        "A video is uploaded as a multipart file (it is streamed into the bucket), not by URL.",
        "url",
      ),
    ]);
  const name = decodeURIComponent(url.pathname.split("/").pop() ?? "") || null;
  const file: UploadedFile = {
    filename: name,
    sniffed,
    size: res.body.byteLength,
    sha256: nodeCrypto().createHash("sha256").update(res.body).digest("hex"),
    bytes: res.body,
    object: null,
  };
  const fields: Record<string, string> = { brand: b.brand };
  if (b.alt != null) fields.alt = b.alt;
  return store(app, actor, newId("media", app.clock.now()), fields, file, "url");
}

async function store(
  app: App,
  actor: Actor,
  id: string,
  fields: Record<string, string>,
  file: UploadedFile,
  param = "file",
) {
  if (fields.brand === undefined)
    throw badRequest("parameter_missing", "Missing required parameter brand.", "brand");
  const brand = await loadBrand(app.db, actor, fields.brand);
  const alt = fields.alt === undefined || fields.alt === "" ? null : fields.alt;
  if (alt !== null && [...alt].length > MAX_ALT)
    throw invalid([problem("alt_too_long", "alt is at most 1,000 characters.", "alt")]);
  if (file.size === 0) throw invalid([problem("media_empty", "The file is empty.", param)]);
  if (file.sniffed.kind === "other")
    throw invalid([
      problem(
        "media_type_unsupported",
        "The file is not a JPEG, PNG, GIF or WebP image, nor an MP4 or QuickTime video.",
        param,
      ),
    ]);
  const now = app.clock.now();
  const row: MediaTable = {
    id,
    org_id: actor.orgId,
    brand_id: brand.id,
    livemode: actor.livemode ? 1 : 0,
    kind: file.sniffed.kind,
    type: file.sniffed.type,
    size: file.size,
    width: null,
    height: null,
    has_alpha: 0,
    animated: 0,
    alt,
    filename: file.filename ? file.filename.slice(0, 255) : null,
    sha256: file.sha256,
    video: null,
    storage: "database",
    bucket: null,
    object_key: null,
    created_at: now,
    updated_at: now,
  };
  if (file.object) {
    const place = { storage: "s3" as const, bucket: file.object.bucket, object_key: file.object.key };
    const facts = await probeVideo((s, e) => readRange(app, place, s, e), file.size).catch((e) => {
      if (e instanceof IndexTooLarge)
        throw invalid([
          problem(
            "media_unreadable",
            `The video's index (moov) describes ${e.samples} samples, more than the ${MAX_INDEX_SAMPLES} read; export it again.`,
            param,
            { limit_samples: MAX_INDEX_SAMPLES },
          ),
        ]);
      return null;
    });
    if (!facts)
      throw invalid([
        problem("media_unreadable", "The video's index (moov) cannot be read; export it again.", param),
      ]);
    Object.assign(row, place, {
      width: facts.width,
      height: facts.height,
      video: JSON.stringify({
        duration_ms: facts.duration_ms,
        frame_rate: facts.frame_rate,
        video_codec: facts.video_codec,
        audio_codec: facts.audio_codec,
      }),
    });
  } else {
    const bytes = file.bytes!;
    // The pixel count from the header, before anything is decoded: a small file can claim a huge picture.
    const pixels = await imagePixels(bytes);
    if (pixels !== null && pixels > MAX_IMAGE_PIXELS)
      throw invalid([
        problem(
          "media_too_large",
          `The image has ${pixels} pixels; it may have at most ${MAX_IMAGE_PIXELS} (100 megapixels).`,
          param,
          { limit_pixels: MAX_IMAGE_PIXELS },
        ),
      ]);
    const info = await imageInfo(bytes);
    if (!info) throw invalid([problem("media_unreadable", "The image cannot be decoded.", param)]);
    Object.assign(row, {
      width: info.width,
      height: info.height,
      has_alpha: info.has_alpha ? 1 : 0,
      animated: info.animated ? 1 : 0,
    });
    Object.assign(row, await placeBytes(app, actor.orgId, id, bytes, row.type));
  }
  try {
    return await inTx(app, async (tx) => {
      await tx.insertInto("media").values(row).execute();
      if (file.bytes) await writeBlob(tx, row, id, file.bytes);
      await audit(tx, app, actor, {
        action: "media.create",
        target: id,
        detail: { brand: brand.id, type: row.type, size: row.size, storage: row.storage },
      });
      return presentMedia(row);
    });
  } catch (e) {
    if (!file.object) await deleteObject(app, row).catch(() => {});
    throw e;
  }
}
