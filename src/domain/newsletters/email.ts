// An issue's content rendered for one provider: the brand's theme, its library images (each must be an image of
// the brand in this mode, else body_invalid) linked by newsletter links that never expire.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { BrandsTable } from "../../db/schema.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { themeOf } from "../brands/email-theme.ts";
import { newsletterMediaUrl, prepareNewsletterLinks } from "../media/link.ts";
import { MEDIA_REF, type Rendered, renderIssue } from "./render.ts";

export interface Content {
  subject: string;
  preview_text: string;
  body: string;
}

/** The media IDs the body names as images, and the theme's logo. */
function namedImages(body: string, logo: string | null): string[] {
  const ids = new Set<string>();
  for (const m of body.matchAll(/\]\(\s*<?(media_[0-9a-z]{26})>?/g)) ids.add(m[1]!);
  if (logo) ids.add(logo);
  return [...ids].filter((id) => MEDIA_REF.test(id));
}

/** Which of these media are images of the brand in this mode. */
async function brandImages(
  db: Db | Tx,
  orgId: string,
  livemode: boolean,
  brandId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom("media")
    .select("id")
    .where("org_id", "=", orgId)
    .where("livemode", "=", livemode ? 1 : 0)
    .where("brand_id", "=", brandId)
    .where("kind", "=", "image")
    .where("id", "in", ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function renderFor(
  app: App,
  db: Db | Tx,
  scope: { orgId: string; livemode: boolean },
  brand: BrandsTable,
  content: Content,
  provider: { provider: string; unsubscribe: string },
  issueId: string,
): Promise<Rendered> {
  const theme = themeOf(brand);
  const known = await brandImages(
    db,
    scope.orgId,
    scope.livemode,
    brand.id,
    namedImages(content.body, theme.logo),
  );
  await prepareNewsletterLinks(app);
  const r = renderIssue({
    ...content,
    theme,
    brandName: brand.name,
    utmDomains: JSON.parse(brand.utm_domains) as string[],
    provider: provider.provider,
    unsubscribe: provider.unsubscribe,
    issueId,
    imageUrl: (id) => (known.has(id) ? newsletterMediaUrl(app, id) : null),
  });
  if (r.unknownImages.length)
    throw invalid([
      problem(
        "body_invalid",
        `The body shows ${r.unknownImages.join(", ")}, which is not an image of this brand in this mode.`,
        "body",
        { media: r.unknownImages },
      ),
    ]);
  return r;
}

/** Holds the issue's images (media_holds), so they outlive media.prune while the issue is kept. */
export async function holdImages(tx: Tx, issueId: string, images: readonly string[], now: number) {
  await tx.deleteFrom("media_holds").where("holder", "=", issueId).execute();
  if (images.length)
    await tx
      .insertInto("media_holds")
      .values([...new Set(images)].map((media_id) => ({ media_id, holder: issueId, created_at: now })))
      .execute();
}
