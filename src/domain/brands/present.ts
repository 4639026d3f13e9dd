import type { BrandsTable } from "../../db/schema.ts";
import { iso } from "../../lib/clock.ts";
import type { Slot } from "./schema.ts";

export const presentBrand = (b: BrandsTable) => ({
  id: b.id,
  object: "brand" as const,
  name: b.name,
  slug: b.slug,
  timezone: b.timezone,
  approval_policy: b.approval_policy,
  utm_domains: JSON.parse(b.utm_domains) as string[],
  slots: JSON.parse(b.slots) as Slot[],
  email_theme: b.email_theme
    ? JSON.parse(b.email_theme)
    : { logo: null, accent: "", postal_address: "", footer: "" },
  created_at: iso(b.created_at),
  updated_at: iso(b.updated_at),
});
export type Brand = ReturnType<typeof presentBrand>;
