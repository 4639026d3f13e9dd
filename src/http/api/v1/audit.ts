import { once } from "../../../lib/once.ts";
import type { RouteDef } from "../../route.ts";

// Each use case loads with its first request (docs/performance.md, "Start and idle memory").
const loadListAudit = once(() => import("../../../domain/audit/service.ts"));

export const auditRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/audit_events",
    tag: "Audit",
    summary: "The org's audit log",
    scope: "audit:read",
    list: true,
    query: ["action", "outcome"],
    response: "AuditEventList",
    handler: async ({ app, actor, query }) => (await loadListAudit()).listAudit(app, actor, query),
  },
];
