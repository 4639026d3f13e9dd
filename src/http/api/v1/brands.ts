import { BrandCreate, BrandUpdate, EmailThemeInput } from "../../../domain/brands/schema.ts";
import { createBrand, getBrand, listBrands, updateBrand } from "../../../domain/brands/service.ts";
import { once } from "../../../lib/once.ts";
import { type RouteDef, reply } from "../../route.ts";

// Loaded on the first theme change, not at start.
const loadEmailTheme = once(() => import("../../../domain/brands/email-theme.ts"));

export const brandRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/brands",
    tag: "Brands",
    summary: "List brands",
    scope: "brands:read",
    list: true,
    response: "BrandList",
    handler: ({ app, actor, query }) => listBrands(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/brands",
    tag: "Brands",
    summary: "Create a brand (default slots Mon-Fri 09:00 and 13:00)",
    scope: "brands:write",
    body: BrandCreate,
    response: "Brand",
    status: 201,
    handler: async ({ app, actor, body }) => reply(201, await createBrand(app, actor, body)),
  },
  {
    method: "GET",
    path: "/v1/brands/:id",
    tag: "Brands",
    summary: "Get a brand by ID or slug",
    scope: "brands:read",
    response: "Brand",
    handler: ({ app, actor, params }) => getBrand(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/brands/:id",
    tag: "Brands",
    summary: "Update a brand, including its slots",
    scope: "brands:write",
    body: BrandUpdate,
    response: "Brand",
    handler: ({ app, actor, params, body }) => updateBrand(app, actor, params.id!, body),
  },
  {
    method: "POST",
    path: "/v1/brands/:id/email_theme",
    tag: "Brands",
    summary: "Set the brand's email theme (logo, accent readable on white, postal address, one-line footer)",
    scope: "brands:write",
    body: EmailThemeInput,
    response: "Brand",
    handler: async ({ app, actor, params, body }) =>
      (await loadEmailTheme()).setEmailTheme(app, actor, params.id!, body),
  },
];
