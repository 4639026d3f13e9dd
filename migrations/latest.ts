// How many migrations index.ts lists. A process that finds the schema current (every start but the first after an
// upgrade) checks against this number alone, so the migrations' own modules load only when one is pending
// (test/db/migrate.test.ts holds it equal to the list's length).
export const LATEST_VERSION = 32;
