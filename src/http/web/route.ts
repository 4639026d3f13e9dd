// What a dashboard route declares: its method and path, who may reach it, and whether it changes the org's data.
import type { Web } from "./page.ts";

/**
 * guest: the sign-in pages (a session is made if there is none, to bind the CSRF token);
 * second_factor: halfway through sign-in; account: signed in, or made to set up two-factor first;
 * member: signed in and a member of an org.
 */
export type Access = "guest" | "second_factor" | "account" | "member";

export interface WebRoute {
  method: "GET" | "POST";
  path: string;
  access: Access;
  handler: (w: Web) => Promise<Response>;
  /** Changes the org's data: refused while the org is read-only or suspended. */
  orgWrite?: boolean;
}
