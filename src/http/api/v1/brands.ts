import { BrandCreate, BrandUpdate } from "../../../domain/brands/schema.ts";
import { createBrand, getBrand, listBrands, updateBrand } from "../../../domain/brands/service.ts";
import { type RouteDef, reply } from "../../route.ts";

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
];
