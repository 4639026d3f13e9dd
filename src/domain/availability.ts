// A database that cannot be reached right now is not a bad request nor a bug: every surface answers 503
// `database_unavailable` with Retry-After, and the caller tries again (interface.md "Errors").
import { isUnavailable } from "../db/index.ts";
import { ServiceError } from "../lib/errors.ts";

/** True for errors that mean the database cannot be reached right now (not a bad query). */
export const databaseDown = (e: unknown): boolean => isUnavailable(e);

export const databaseUnavailable = () =>
  new ServiceError(503, "database_unavailable", "The database cannot be reached right now; retry shortly.", {
    headers: { "Retry-After": "30" },
  });
