// /cli?device=<name>: the fallback CLI sign-in. Issues a full-access API key in the chosen mode and shows it once,
// to paste at the CLI's prompt.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, FormError } from "./parts.tsx";
import { SudoField } from "./sudo.tsx";

export function CliKeyPage(props: {
  f: Frame;
  device: string;
  livemode: boolean;
  sudo: boolean;
  errors?: FieldErrors;
}) {
  return (
    <Layout f={props.f}>
      <div class="narrow">
        <form method="post" action="/cli" class="card" id="cli-key-form">
          <Csrf token={props.f.csrf} />
          <FormError errors={props.errors} shown={["password"]} />
          <p>
            Make an API key for the command line <strong id="cli-device">{props.device}</strong>. It has the
            access your role allows and is shown once.
          </p>
          <input type="hidden" name="device" value={props.device} />
          <fieldset>
            <legend>Mode</legend>
            <label>
              <input type="radio" name="livemode" value="false" checked={!props.livemode} /> Test (sandbox
              only)
            </label>
            <label>
              <input type="radio" name="livemode" value="true" checked={props.livemode} /> Live (real
              networks)
            </label>
          </fieldset>
          <SudoField needed={props.sudo} errors={props.errors} />
          <button type="submit" class="primary" id="cli-key-create">
            Make the key
          </button>
        </form>
      </div>
    </Layout>
  );
}

export function CliKeyShownPage(props: { f: Frame; secret: string; livemode: boolean; name: string }) {
  return (
    <Layout f={props.f}>
      <div class="narrow card">
        <p>
          Paste this {props.livemode ? "live" : "test"} key at the command line's prompt. It is shown only
          now; the key is listed as <strong>{props.name}</strong> on the API keys page, where it can be
          revoked.
        </p>
        <p class="secret" id="cli-key-secret">
          {props.secret}
        </p>
      </div>
    </Layout>
  );
}
