import { listAudit } from "../../../domain/audit/service.ts";
import type { RouteDef } from "../../route.ts";

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
    handler: ({ app, actor, query }) => listAudit(app, actor, query),
  },
];
