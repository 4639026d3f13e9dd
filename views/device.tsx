// /device: a signed-in person types the code their CLI printed, sees what is asking (device name, the address it
// asked from, the mode) and approves it (with a recent password confirmation) or denies it.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError, when } from "./parts.tsx";
import { SudoField } from "./sudo.tsx";

export interface DeviceView {
  device_name: string;
  ip: string | null;
  livemode: boolean;
  created_at: string;
  expires_at: string;
}

export function DeviceCodePage(props: { f: Frame; code?: string; errors?: FieldErrors }) {
  return (
    <Layout f={props.f}>
      <div class="narrow">
        <form method="post" action="/device" class="card" id="device-code-form">
          <Csrf token={props.f.csrf} />
          <FormError errors={props.errors} shown={["user_code"]} />
          <p>
            Type the code your command line printed after <code>svc auth login</code>.
          </p>
          <Field
            name="user_code"
            label="Code"
            value={props.code}
            errors={props.errors}
            autocomplete="off"
            hint="Eight letters, like BDKR-TQZW."
            maxlength={20}
            required
          />
          <button type="submit" class="primary">
            Continue
          </button>
        </form>
      </div>
    </Layout>
  );
}

export function DeviceConfirmPage(props: {
  f: Frame;
  code: string;
  device: DeviceView;
  sudo: boolean;
  errors?: FieldErrors;
}) {
  const d = props.device;
  return (
    <Layout f={props.f}>
      <div class="narrow">
        <div class="card" id="device-details">
          <p class="lead">A command-line client asks to sign in as you.</p>
          <dl>
            <dt>Device</dt>
            <dd id="device-name">{d.device_name}</dd>
            <dt>Asked from</dt>
            <dd id="device-ip">{d.ip ?? "unknown address"}</dd>
            <dt>Mode</dt>
            <dd id="device-mode">
              <strong>{d.livemode ? "LIVE" : "TEST"}</strong>
              {d.livemode ? " — it can publish to real networks." : " — sandbox channels only."}
            </dd>
            <dt>Asked at</dt>
            <dd>{when(d.created_at)}</dd>
          </dl>
          <p class="muted">Approve only if you started this sign-in yourself, just now.</p>
        </div>
        <form method="post" action="/device/approve" class="card" id="device-approve-form">
          <Csrf token={props.f.csrf} />
          <input type="hidden" name="user_code" value={props.code} />
          <FormError errors={props.errors} shown={["password"]} />
          <SudoField needed={props.sudo} errors={props.errors} />
          <button type="submit" class="primary" id="device-approve">
            Approve
          </button>
        </form>
        <form method="post" action="/device/deny" class="card" id="device-deny-form">
          <Csrf token={props.f.csrf} />
          <input type="hidden" name="user_code" value={props.code} />
          <button type="submit" class="danger" id="device-deny">
            Deny
          </button>
        </form>
      </div>
    </Layout>
  );
}

export function DeviceDonePage(props: { f: Frame; approved: boolean; device: DeviceView }) {
  return (
    <Layout f={props.f}>
      <div class="narrow card" id="device-done">
        {props.approved ? (
          <p>
            <strong>{props.device.device_name}</strong> is signed in as you in{" "}
            {props.device.livemode ? "live" : "test"} mode. You can go back to your terminal. It is listed
            under <a href="/account/devices">Devices</a>, where you can sign it out.
          </p>
        ) : (
          <p>
            The sign-in of <strong>{props.device.device_name}</strong> was denied. Nothing was given to it.
          </p>
        )}
      </div>
    </Layout>
  );
}
