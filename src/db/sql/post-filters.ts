// Filters of GET /v1/posts (domain/posts/read.ts) that the query builder cannot say.
import { condition } from "./statement.ts";

/** LIKE's own characters in the text searched for, escaped with the ESCAPE character below. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The post's search text (lowercase, every channel's text) contains the given lowercase text. */
export const postTextContains = condition<[text: string]>(
  "posts",
  "search_text LIKE ? ESCAPE '\\'",
  ([text]) => [`%${escapeLike(text)}%`],
);

/**
 * The post's metadata (a JSON object, stored as text) has `key` equal to `value`. SQLite reads it with a JSON
 * path, the key quoted in it; Postgres with ->>.
 */
export const postMetadataEquals = condition<[key: string, value: string]>(
  "posts",
  { sqlite: "json_extract(metadata, ?) = ?", postgres: "(metadata::jsonb ->> ?) = ?" },
  ([key, value], dialect) =>
    dialect === "sqlite" ? [`$."${key.replace(/"/g, '\\"')}"`, value] : [key, value],
);
