// A refused or failed request: what happened in words, its code (linked to its entry on the install's error codes
// page), and the request ID to quote.
import type { ServiceError } from "../src/lib/errors.ts";
import type { Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";

export function ErrorPage(props: { f: Frame; error: ServiceError }) {
  return (
    <Layout f={props.f}>
      <div class="alert error" role="alert" id="error">
        <p>{props.error.message}</p>
        <p class="muted">
          Code{" "}
          <a href={`/docs/errors#${props.error.code}`}>
            <code>{props.error.code}</code>
          </a>
        </p>
      </div>
      <p>
        <a href="/">Go back to the dashboard</a>
      </p>
    </Layout>
  );
}
