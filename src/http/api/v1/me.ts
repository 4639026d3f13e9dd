import { me } from "../../../domain/me/service.ts";
import type { RouteDef } from "../../route.ts";

export const meRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/me",
    tag: "Identity",
    summary: "The calling credential, its org and its mode",
    response: "Me",
    handler: ({ app, actor }) => me(app, actor),
  },
];
