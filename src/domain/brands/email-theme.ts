// POST /v1/brands/{id}/email_theme: how the brand's newsletters look. The logo is one of the brand's images (held,
// so media.prune and deleting it leave it while it is the logo); the accent colour must be readable on white
// (WCAG 2 contrast ratio at least 4.5:1, the level for normal text); the postal address (which mail law asks every
// newsletter to carry) at most 300 characters; the footer one line of at most 300. Fields left out keep their value.
import type { App } from "../../app/context.ts";
import type { BrandsTable } from "../../db/schema.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { type Actor, brandVisible, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { rowInScope } from "../scope.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentBrand } from "./present.ts";
import { EmailThemeInput } from "./schema.ts";
import { loadBrand } from "./service.ts";

export interface EmailTheme {
  logo: string | null;
  accent: string;
  postal_address: string;
  footer: string;
}

export const NO_THEME: EmailTheme = { logo: null, accent: "", postal_address: "", footer: "" };

export const themeOf = (b: Pick<BrandsTable, "email_theme">): EmailTheme =>
  b.email_theme ? { ...NO_THEME, ...JSON.parse(b.email_theme) } : NO_THEME;

/** WCAG 2 relative luminance of "#rrggbb". */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** Contrast ratio of a colour against white (1 to 21). */
export const contrastOnWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);
export const MIN_CONTRAST = 4.5;

export const logoHolder = (brandId: string) => `logo:${brandId}`;

export async function setEmailTheme(app: App, actor: Actor, ref: string, input: unknown) {
  requireScope(actor, "brands:write");
  const b = parse(EmailThemeInput, input);
  if (b.accent && contrastOnWhite(b.accent) < MIN_CONTRAST) {
    const ratio = Math.floor(contrastOnWhite(b.accent) * 100) / 100;
    throw invalid([
      problem(
        "accent_invalid",
        `${b.accent} is too light to read on white (contrast ${ratio}:1; at least ${MIN_CONTRAST}:1).`,
        "accent",
        { contrast: ratio, minimum: MIN_CONTRAST },
      ),
    ]);
  }
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const brand = await loadBrand(tx, actor, ref, "id");
    const cur = themeOf(brand);
    const next: EmailTheme = {
      logo: b.logo === undefined ? cur.logo : b.logo === "" ? null : b.logo,
      accent: b.accent ?? cur.accent,
      postal_address: b.postal_address ?? cur.postal_address,
      footer: b.footer ?? cur.footer,
    };
    if (b.logo) {
      const m = await rowInScope(tx, actor, "media", "media", b.logo);
      if (!m || m.brand_id !== brand.id || m.kind !== "image" || !brandVisible(actor, m.brand_id))
        throw invalid([problem("logo_unknown", `${b.logo} is not an image of this brand.`, "logo")]);
    }
    if (next.logo !== cur.logo) {
      await tx.deleteFrom("media_holds").where("holder", "=", logoHolder(brand.id)).execute();
      if (next.logo)
        await tx
          .insertInto("media_holds")
          .values({ media_id: next.logo, holder: logoHolder(brand.id), created_at: now })
          .execute();
    }
    const email_theme = JSON.stringify(next);
    await tx
      .updateTable("brands")
      .set({ email_theme, updated_at: now })
      .where("id", "=", brand.id)
      .where("org_id", "=", actor.orgId)
      .execute();
    await audit(tx, app, actor, {
      action: "brand.email_theme",
      target: brand.id,
      detail: { fields: Object.keys(b) },
    });
    return presentBrand({ ...brand, email_theme, updated_at: now });
  });
}
