// The media library: a brand's images and videos as a grid of thumbnails with their alt text (edited in place),
// size and type, deleted after a confirmation; an upload form that works without JavaScript (one file, with its alt
// text) and, with it, takes files dropped on it and shows each one's progress (static/upload.js).
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { type BrandRef, brandLabel, Csrf, FormError, Section, when } from "./parts.tsx";

export interface LibraryMedia {
  id: string;
  brand: string;
  type: string;
  size: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  filename: string | null;
  video: { duration_ms: number } | null;
  created_at: string;
}

export interface MediaProps {
  f: Frame;
  brands: (BrandRef & { id: string })[];
  /** The brand shown ("" for every brand). */
  brand: string;
  media: LibraryMedia[];
  /** The cursor of the next (older) page, when there is one. */
  older: string | null;
  canWrite: boolean;
  /** Problems with the upload form, or with one medium's alt text or deletion (by its ID). */
  errors?: { form: string; errors: FieldErrors; alt?: string } | undefined;
}

const size = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${Math.max(1, Math.round(n / 1024))} KiB`;

function Upload(props: MediaProps) {
  const e = props.errors?.form === "upload" ? props.errors.errors : undefined;
  const chosen = props.brand || props.brands[0]?.id || "";
  return (
    <form
      method="post"
      action={`/media/upload?_csrf=${encodeURIComponent(props.f.csrf)}`}
      enctype="multipart/form-data"
      class="card upload-form"
      id="upload-form"
    >
      <div class="dropzone" data-upload="library" id="library-drop">
        <p class="drop-title">
          <strong>Drop images or videos here</strong> <span class="muted">or choose a file below</span>
        </p>
        <div class="upload-fields">
          <div class="field">
            <label for="up-brand">Brand</label>
            <select id="up-brand" name="brand">
              {props.brands.map((b) => (
                <option value={b.id} selected={b.id === chosen}>
                  {brandLabel(b)}
                </option>
              ))}
            </select>
          </div>
          <div class={e?.file ? "field has-error" : "field"}>
            <label for="up-file">File</label>
            <input
              id="up-file"
              name="file"
              type="file"
              accept="image/jpeg,image/png,image/gif,image/webp,video/mp4,video/quicktime"
              multiple
              aria-describedby={e?.file ? "up-file-error" : "up-file-hint"}
            />
            <p class="hint" id="up-file-hint">
              JPEG, PNG, GIF or WebP up to 16 MiB; MP4 or QuickTime video when the server stores media in S3.
            </p>
            {e?.file ? (
              <p class="error" id="up-file-error">
                {e.file}
              </p>
            ) : null}
          </div>
          <div class={e?.alt ? "field has-error" : "field"}>
            <label for="up-alt">
              Alt text <span class="muted">(optional)</span>
            </label>
            <input
              id="up-alt"
              name="alt"
              type="text"
              maxlength={1000}
              aria-describedby={e?.alt ? "up-alt-error" : undefined}
            />
            {e?.alt ? (
              <p class="error" id="up-alt-error">
                {e.alt}
              </p>
            ) : null}
          </div>
        </div>
        <FormError errors={e} shown={["file", "alt"]} />
        <button type="submit" class="primary" id="upload-submit">
          Upload
        </button>
        <ul class="uploads" aria-live="polite" />
      </div>
    </form>
  );
}

function Card(props: { p: MediaProps; m: LibraryMedia }) {
  const { p, m } = props;
  const mine = p.errors?.form === m.id ? p.errors : undefined;
  const label = m.filename ?? m.id;
  const brand = p.brands.find((b) => b.id === m.brand);
  return (
    <li class="media-card" id={`media-${m.id}`}>
      <div class="thumb">
        {m.type.startsWith("image/") ? (
          <img src={`/media/${m.id}/thumb`} alt={m.alt ?? ""} loading="lazy" />
        ) : (
          <span class="video-thumb" aria-hidden="true">
            ▶
          </span>
        )}
      </div>
      <p class="media-name">
        <strong>{label}</strong>
      </p>
      <p class="muted">
        {m.type.replace(/^(image|video)\//, "").toUpperCase()}
        {m.width && m.height ? ` · ${m.width}×${m.height}` : ""} · {size(m.size)}
        {m.video ? ` · ${(m.video.duration_ms / 1000).toFixed(1)} s` : ""}
        {p.brand === "" && brand ? ` · ${brandLabel(brand)}` : ""}
      </p>
      <p class="muted">Added {when(m.created_at)}</p>
      {p.canWrite ? (
        <>
          <form method="post" action={`/media/${m.id}/alt`} class="stack alt-form">
            <Csrf token={p.f.csrf} />
            <label for={`alt-${m.id}`}>Alt text</label>
            <textarea
              id={`alt-${m.id}`}
              name="alt"
              rows={2}
              aria-invalid={mine?.errors.alt ? "true" : undefined}
              aria-describedby={mine?.errors.alt ? `alt-${m.id}-error` : undefined}
            >
              {mine?.alt ?? m.alt ?? ""}
            </textarea>
            {mine?.errors.alt ? (
              <p class="error" id={`alt-${m.id}-error`}>
                {mine.errors.alt}
              </p>
            ) : null}
            <button type="submit" id={`alt-save-${m.id}`}>
              Save alt text
            </button>
          </form>
          {mine ? <FormError errors={mine.errors} shown={["alt"]} /> : null}
          <form
            method="post"
            action={`/media/${m.id}/delete`}
            class="inline"
            data-confirm={`Delete ${label} from the library?`}
          >
            <Csrf token={p.f.csrf} />
            <button type="submit" class="danger" id={`delete-${m.id}`}>
              Delete
            </button>
          </form>
        </>
      ) : (
        <p class="alt">{m.alt ? `Alt text: ${m.alt}` : "No alt text"}</p>
      )}
    </li>
  );
}

export function MediaPage(props: MediaProps) {
  return (
    <Layout f={props.f} scripts={["/static/upload.js"]}>
      <form method="get" action="/media" class="filters" id="media-filter">
        <div class="field">
          <label for="mf-brand">Brand</label>
          <select id="mf-brand" name="brand">
            <option value="">Every brand</option>
            {props.brands.map((b) => (
              <option value={b.id} selected={b.id === props.brand}>
                {brandLabel(b)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Show</button>
      </form>
      {props.canWrite && props.brands.length ? <Upload {...props} /> : null}
      <Section title={`Library (${props.f.livemode ? "live" : "test"} mode)`} id="library">
        {props.media.length === 0 ? (
          <p class="empty" id="media-empty">
            No images or videos here yet.{" "}
            {props.canWrite
              ? props.brands.length
                ? "Drop some on the upload box above: they can then be attached to posts."
                : "Create a brand first."
              : "Editors and admins can upload them."}
          </p>
        ) : (
          <ul class="media-grid" id="media-grid">
            {props.media.map((m) => (
              <Card p={props} m={m} />
            ))}
          </ul>
        )}
        {props.older ? (
          <p class="pager">
            <span />
            <a
              href={`/media?${new URLSearchParams({ ...(props.brand ? { brand: props.brand } : {}), starting_after: props.older })}`}
            >
              Older →
            </a>
          </p>
        ) : null}
      </Section>
    </Layout>
  );
}
