// What a dashboard route declares: its method and path, who may reach it, and what it does with the member's org.
import type { Scope } from "../../domain/scopes.ts";
import type { Web } from "./page.ts";

/**
 * link: a page whose URL holds its own permission (the client review link): no session is made, and the handler
 * checks its own form token instead of the session's CSRF token;
 * guest: the sign-in pages (a session is made if there is none, to bind the CSRF token);
 * second_factor: halfway through sign-in; account: signed in, or made to set up two-factor first;
 * member: signed in and a member of an org.
 */
export type Access = "link" | "guest" | "second_factor" | "account" | "member";

/**
 * What a member route does with the org, which decides what the org's status allows (interface.md: `read_only`
 * members read but change nothing; `suspended` members see only a notice):
 * - write: changes the org's data, or exists only to (a form page such as /cli): refused unless the org is active;
 * - read: shows the org's data: refused while the org is suspended (the notice is shown instead);
 * - none: touches only the person or the session (their password, sessions, devices, which org or mode is shown,
 *   the billing hand-off an owner follows even when suspended): allowed whatever the org's status.
 * The wrapper (index.tsx) enforces it for every route; a member route cannot leave it out.
 */
export type OrgUse = "write" | "read" | "none";

interface Base {
  method: "GET" | "POST";
  path: string;
  handler: (w: Web) => Promise<Response>;
  /** The handler reads the request body itself (a media upload); see webContext. */
  rawBody?: true;
}

export type WebRoute =
  | (Base & {
      access: "member";
      org: OrgUse;
      /**
       * The scope the member's role must hold for the page to be of use (the page exists to make keys, or to
       * write posts): the wrapper refuses other roles (403 forbidden) before the handler runs, and the nav
       * (views/layout.tsx) leaves the page out for them.
       */
      needs?: Scope;
    })
  | (Base & { access: Exclude<Access, "member">; org?: "none" });
