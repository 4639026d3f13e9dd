// Enterprise trust (migration 0027): the install's own wrapped secrets and single sign-on.
import type { Bool } from "./bool.ts";

/** A secret of the install itself, wrapped by the master key like an org's data key. */
export interface InstallKeysTable {
  id: string;
  master_key_id: string;
  wrapped: string;
  created_at: number;
  rotated_at: number | null;
}

/** An org's OIDC provider; client_secret is sealed with the org's data key. */
export interface SsoProvidersTable {
  org_id: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  default_role: string;
  created_at: number;
  updated_at: number;
}

/** A domain an org claims; verified once `_svc-verify.<domain>` holds `svc-verify=<token>`. */
export interface SsoDomainsTable {
  id: string;
  org_id: string;
  domain: string;
  token: string;
  verified_at: number | null;
  created_at: number;
}

/** A sign-in under way at the provider: looked up by the hash of its state, used once. */
export interface SsoLoginsTable {
  state_hash: string;
  org_id: string;
  email: string;
  nonce: string;
  code_verifier: string;
  break_glass: Bool;
  created_at: number;
  expires_at: number;
}

export interface TrustTables {
  install_keys: InstallKeysTable;
  sso_providers: SsoProvidersTable;
  sso_domains: SsoDomainsTable;
  sso_logins: SsoLoginsTable;
}
