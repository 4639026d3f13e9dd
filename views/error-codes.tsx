// GET /docs/errors: every error code svc answers with, from the catalogue in src/lib/error-codes.ts (the same list
// docs/api.md carries). Each problem's `doc_url` is this page with `#<code>`, so each code has its own anchor. It
// is served by the install itself, without signing in, and runs no script.
import { ERROR_CODES, ERROR_GROUPS, type ErrorCodeEntry } from "../src/lib/error-codes.ts";

// Long codes wrap anywhere, so the tables fit a phone's width (test/e2e/accessibility.test.ts measures it).
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}th,td{text-align:left;vertical-align:top;
padding:.35rem .5rem;border-bottom:1px solid #ddd}th{font-weight:600}code{font:14px ui-monospace,monospace}
tr:target{background:#fff4c2}td{overflow-wrap:anywhere}`;

/** The meaning with `code` spans as <code>, the way docs/api.md shows them. */
function Meaning(props: { text: string }) {
  return <>{props.text.split("`").map((piece, i) => (i % 2 === 1 ? <code>{piece}</code> : piece))}</>;
}

export function ErrorCodesPage() {
  const entries = Object.entries(ERROR_CODES) as [string, ErrorCodeEntry][];
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>svc error codes</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <h1>Error codes</h1>
        <p>
          Every error of the API is a problem detail (<code>application/problem+json</code>) with a stable{" "}
          <code>code</code>; a 422 lists every problem in <code>errors</code>, each with its own code. Its{" "}
          <code>doc_url</code> points at the code's row on this page. The status is left blank where it
          varies.
        </p>
        {ERROR_GROUPS.map((group) => (
          <section>
            <h2>{group}</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Status</th>
                  <th scope="col">Meaning</th>
                </tr>
              </thead>
              <tbody>
                {entries
                  .filter(([, e]) => e.group === group)
                  .map(([code, e]) => (
                    <tr id={code}>
                      <td>
                        <code>{code}</code>
                      </td>
                      <td>{e.status ?? ""}</td>
                      <td>
                        <Meaning text={e.meaning} />
                      </td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </section>
        ))}
      </body>
    </html>
  );
}
