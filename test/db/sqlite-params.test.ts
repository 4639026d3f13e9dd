// Every statement the app sends to SQLite has its parameters written `+?` (src/db/sqlite-params.ts), so that a
// join or a LIKE is not planned again on every run. The rewrite must leave everything else as it was: string
// literals, quoted names and comments that hold a `?`, and the rows and indexes a statement reads.
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { sqliteText } from "../../src/db/sqlite-params.ts";

test("each parameter becomes +?, numbered ones too; a ? in a literal, a quoted name or a comment stays", () => {
  expect(sqliteText("SELECT a FROM t WHERE x = ? AND y IN (?, ?) LIMIT ?")).toBe(
    "SELECT a FROM t WHERE x = +? AND y IN (+?, +?) LIMIT +?",
  );
  expect(sqliteText("SELECT ?1, ?2")).toBe("SELECT +?1, +?2");
  expect(sqliteText("SELECT 'it''s?', \"who?\", `why?`, [how?], ?")).toBe(
    "SELECT 'it''s?', \"who?\", `why?`, [how?], +?",
  );
  expect(sqliteText("SELECT ? -- is it?\n, ? /* or ? */, ?")).toBe(
    "SELECT +? -- is it?\n, +? /* or ? */, +?",
  );
  expect(sqliteText("SELECT 1")).toBe("SELECT 1");
  // A text that never closes its literal or comment is left for SQLite to refuse, not looped over.
  expect(sqliteText("SELECT 'open ?")).toBe("SELECT 'open ?");
  expect(sqliteText("SELECT 1 /* open ?")).toBe("SELECT 1 /* open ?");
});

test("a join reads the same rows by the same indexes with its parameters written +?", () => {
  const db = new Database(":memory:");
  try {
    db.run("CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT)");
    db.run("CREATE TABLE members (org_id TEXT, user_id TEXT, role TEXT, PRIMARY KEY (org_id, user_id))");
    db.run("CREATE INDEX members_user ON members (user_id)");
    db.run("INSERT INTO users VALUES ('u1', 'a@example.com'), ('u2', 'b@example.com')");
    db.run("INSERT INTO members VALUES ('o1', 'u1', 'owner'), ('o2', 'u1', 'member'), ('o1', 'u2', 'admin')");
    const text =
      "SELECT u.email, m.org_id, m.role FROM users u JOIN members m ON m.user_id = u.id WHERE u.id = ? " +
      "AND m.role LIKE ? ORDER BY m.org_id LIMIT ?";
    const params = ["u1", "%m%", 10];
    expect(db.query(sqliteText(text)).all(...params)).toEqual(db.query(text).all(...params));
    expect(db.query(sqliteText(text)).all(...params)).toEqual([
      { email: "a@example.com", org_id: "o2", role: "member" },
    ]);
    const plan = (t: string) =>
      db
        .query(`EXPLAIN QUERY PLAN ${t}`)
        .all(...params)
        .map((r) => (r as { detail: string }).detail);
    expect(plan(sqliteText(text))).toEqual(plan(text));
    expect(plan(sqliteText(text)).join("\n")).toContain("USING INDEX members_user");
  } finally {
    db.close();
  }
});
