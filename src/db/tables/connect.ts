// Table types of sign-in connections: developer apps (migration 0015).

export interface DeveloperAppsTable {
  id: string;
  /** The org that registered it; null for an install app, offered to every org. */
  org_id: string | null;
  provider: string;
  name: string;
  client_id: string;
  /** Sealed: with the org's data key for an org app, with the master key for an install app. */
  client_secret: string;
  created_at: number;
  updated_at: number;
}

export interface ConnectTables {
  developer_apps: DeveloperAppsTable;
}
