// Table types of migrations/0003_templates.ts.

export interface TemplatesTable {
  id: string;
  org_id: string;
  brand_id: string;
  key: string;
  name: string;
  approval: string;
  latest_version: number;
  created_at: number;
  updated_at: number;
  /** Set when deleted: the row stays for posts that used it, and the key is free again. */
  deleted_at: number | null;
}

export interface TemplateVersionsTable {
  template_id: string;
  version: number;
  /** TemplateSource as JSON: {variables, examples, body, overrides, fit}. Never updated. */
  source: string;
  created_at: number;
}

export interface TemplateTables {
  templates: TemplatesTable;
  template_versions: TemplateVersionsTable;
}
