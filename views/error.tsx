// A refused or failed request: what happened in words, its code, and the request ID to quote.
import type { ServiceError } from "../src/lib/errors.ts";
import type { Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";

export function ErrorPage(props: { f: Frame; error: ServiceError }) {
  return (
    <Layout f={props.f}>
      <div class="alert error" role="alert" id="error">
        <p>{props.error.message}</p>
        <p class="muted">
          Code <code>{props.error.code}</code>
        </p>
      </div>
      <p>
        <a href="/">Go back to the dashboard</a>
      </p>
    </Layout>
  );
}
