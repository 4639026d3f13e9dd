// Scopes and roles (interface.md Authentication 1; reference §1). A key that lists no scope holds every
// integration scope; administrative scopes are held only when listed, and only a member can grant them.

export const INTEGRATION_SCOPES = [
  "posts:read",
  "posts:write",
  "templates:read",
  "templates:write",
  "channels:read",
  "channels:write",
  "brands:read",
  "brands:write",
  "events:read",
  "webhooks:read",
  "webhooks:write",
  "ads:read",
  "newsletters:read",
  "newsletters:write",
] as const;
export const ADMIN_SCOPES = ["keys:write", "posts:approve", "audit:read", "ads:write"] as const;
export const ALL_SCOPES = [...INTEGRATION_SCOPES, ...ADMIN_SCOPES] as const;

export type Scope = (typeof ALL_SCOPES)[number] | "members:write" | "org:write";
export type Role = "owner" | "admin" | "editor" | "viewer";
export const ROLES: readonly Role[] = ["owner", "admin", "editor", "viewer"];

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

/** The lowest role that holds a scope: viewer reads, editor writes posts and templates, admin the rest. */
export function minimumRole(scope: Scope): Role {
  if (scope === "org:write") return "owner";
  if (scope.endsWith(":read") && scope !== "audit:read") return "viewer";
  if (scope === "posts:write" || scope === "templates:write" || scope === "newsletters:write")
    return "editor";
  return "admin";
}

export const roleAtLeast = (role: Role, min: Role) => RANK[role] >= RANK[min];

export const scopesOfRole = (role: Role): Set<Scope> =>
  new Set<Scope>(
    [...ALL_SCOPES, "members:write", "org:write"].filter((s) =>
      roleAtLeast(role, minimumRole(s as Scope)),
    ) as Scope[],
  );

/** What a key holds: its listed scopes, or every integration scope when it lists none. */
export const scopesOfKey = (listed: readonly string[] | null): Set<Scope> =>
  new Set<Scope>(listed && listed.length > 0 ? (listed as Scope[]) : INTEGRATION_SCOPES);

export const isScope = (s: string): s is (typeof ALL_SCOPES)[number] =>
  (ALL_SCOPES as readonly string[]).includes(s);
export const isAdminScope = (s: string) => (ADMIN_SCOPES as readonly string[]).includes(s);
