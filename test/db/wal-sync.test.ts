// syncWrites: what a process committed is on disk when it resolves. SQLite syncs its WAL file (off the event
// loop; callers arriving during a sync share the next one); Postgres has nothing to do.
import { afterAll, describe, expect, test } from "bun:test";
import { open } from "node:fs/promises";
import { sql } from "kysely";
import { walSync } from "../../src/db/wal-sync.ts";
import { dialects, dropCreatedDatabases, freshDatabase } from "../helpers/db.ts";

afterAll(() => dropCreatedDatabases());

for (const dialect of dialects) {
  test(`syncWrites resolves after a commit (${dialect})`, async () => {
    const { database } = await freshDatabase(dialect);
    try {
      await sql`CREATE TABLE ws_rows (id INTEGER PRIMARY KEY)`.execute(database.db);
      await sql`INSERT INTO ws_rows (id) VALUES (1)`.execute(database.db);
      expect(typeof database.syncWrites).toBe("function");
      await database.syncWrites!();
    } finally {
      await database.close();
    }
  });
}

describe("the SQLite WAL sync", () => {
  test("calls made while a sync runs share the next one: each resolves after a sync that began after it", async () => {
    const { database, url } = await freshDatabase("sqlite");
    const path = url.replace(/^sqlite:/, "");
    await sql`CREATE TABLE ws_rows (id INTEGER PRIMARY KEY)`.execute(database.db);
    const h = await open(`${path}-wal`, "r");
    const proto = Object.getPrototypeOf(h) as { datasync(): Promise<void> };
    await h.close();
    const datasync = proto.datasync;
    const started: number[] = [];
    proto.datasync = async function (this: unknown) {
      started.push(performance.now());
      await Bun.sleep(20);
      return datasync.call(this);
    };
    const w = walSync(path);
    try {
      const first = w.sync();
      await Bun.sleep(5);
      const calledAt = performance.now();
      const later = await Promise.all(
        [w.sync(), w.sync(), w.sync()].map((p) => p.then(() => performance.now())),
      );
      await first;
      // Two syncs for four callers; the three that came during the first waited for a second that began later.
      expect(started).toHaveLength(2);
      expect(started[1]!).toBeGreaterThan(calledAt);
      for (const at of later) expect(at).toBeGreaterThanOrEqual(started[1]!);
    } finally {
      proto.datasync = datasync;
      await w.close();
      await database.close();
    }
  });

  test("a WAL file that does not exist fails the sync; the next sync opens it again", async () => {
    const { database, url } = await freshDatabase("sqlite");
    const path = url.replace(/^sqlite:/, "");
    const w = walSync(`${path}.elsewhere`);
    try {
      await expect(w.sync()).rejects.toThrow(/ENOENT|no such file/i);
      await Bun.write(`${path}.elsewhere-wal`, "");
      await w.sync();
    } finally {
      await w.close();
      await database.close();
    }
  });
});
