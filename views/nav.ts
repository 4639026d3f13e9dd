// The dashboard's navigation as data: groups of links, in the order the sidebar shows them. A new page is one line
// in its group. `section` is what the page passes to frame() (src/http/web/page.ts) to be marked current; `needs`
// names the scope the page's route declares (route.ts `needs`), so the link is offered only to a role holding it.

export interface NavItem {
  section: string;
  href: string;
  label: string;
  needs?: string;
}

export interface NavGroup {
  /** Shown above the group's links; null for the links above every group (Home). */
  label: string | null;
  items: NavItem[];
}

export const NAV: NavGroup[] = [
  { label: null, items: [{ section: "home", href: "/home", label: "Home" }] },
  {
    label: "Publish",
    items: [
      { section: "compose", href: "/posts/new", label: "New post", needs: "posts:write" },
      { section: "queue", href: "/queue", label: "Queue" },
      { section: "posts", href: "/posts", label: "Posts" },
      { section: "approvals", href: "/approvals", label: "Approvals" },
      { section: "newsletters", href: "/newsletters", label: "Newsletters", needs: "newsletters:read" },
    ],
  },
  {
    label: "Library",
    items: [
      { section: "media", href: "/media", label: "Media" },
      { section: "templates", href: "/templates", label: "Templates" },
    ],
  },
  {
    label: "Insights",
    items: [
      { section: "reports", href: "/reports", label: "Reports", needs: "brands:read" },
      { section: "insights", href: "/insights", label: "Ads and analytics", needs: "ads:read" },
    ],
  },
  {
    label: "Accounts",
    items: [
      { section: "channels", href: "/channels", label: "Channels" },
      { section: "brands", href: "/brands", label: "Brands" },
      { section: "mail_accounts", href: "/mail-accounts", label: "Mail accounts", needs: "channels:read" },
    ],
  },
  {
    label: "Developers",
    items: [
      { section: "api_keys", href: "/api-keys", label: "API keys", needs: "keys:write" },
      { section: "webhooks", href: "/webhooks", label: "Webhooks", needs: "webhooks:read" },
      { section: "events", href: "/events", label: "Events", needs: "events:read" },
      { section: "requests", href: "/requests", label: "Request log", needs: "audit:read" },
    ],
  },
  {
    label: "Org",
    items: [
      { section: "members", href: "/members", label: "Members" },
      { section: "audit", href: "/audit", label: "Audit log", needs: "audit:read" },
      { section: "org", href: "/org", label: "Org settings" },
    ],
  },
  {
    label: "You",
    items: [
      { section: "notifications", href: "/notifications", label: "Notifications" },
      { section: "security", href: "/account/security", label: "Security" },
      { section: "sessions", href: "/account/sessions", label: "Sessions" },
      { section: "devices", href: "/account/devices", label: "Devices" },
    ],
  },
];

/** The groups as a role sees them: links it may use, empty groups left out. */
export function navFor(scopes: readonly string[]): NavGroup[] {
  return NAV.map((g) => ({
    label: g.label,
    items: g.items.filter((i) => !i.needs || scopes.includes(i.needs)),
  })).filter((g) => g.items.length > 0);
}
