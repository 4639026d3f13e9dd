// Devices: the command-line clients signed in as this person (user tokens), with sign-out for each.
import type { Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { ActionTable, Csrf, when } from "./parts.tsx";

export interface DeviceRow {
  id: string;
  name: string;
  hint: string;
  livemode: boolean;
  created_at: string;
  last_used_at: string | null;
}

export function DeviceRowView(props: { d: DeviceRow; csrf: string }) {
  const d = props.d;
  const action = `/account/devices/${d.id}/revoke`;
  return (
    <tr id={`row-${d.id}`}>
      <td>
        {d.name} <span class="muted">{d.hint}</span>
      </td>
      <td>{d.livemode ? <span class="tag warn">live</span> : <span class="tag">test</span>}</td>
      <td class="when">{when(d.created_at)}</td>
      <td class="when">{when(d.last_used_at)}</td>
      <td>
        <form method="post" action={action} hx-post={action} hx-target={`#row-${d.id}`} hx-swap="outerHTML">
          <Csrf token={props.csrf} />
          <button type="submit" class="danger" aria-label={`Sign out ${d.name}`}>
            Sign out
          </button>
        </form>
      </td>
    </tr>
  );
}

export function DevicesPage(props: { f: Frame; devices: DeviceRow[] }) {
  return (
    <Layout f={props.f}>
      <p>
        Command-line clients signed in as you with <code>svc auth login</code>. A device unused for a year is
        signed out by itself; changing your password signs out all of them.
      </p>
      {props.devices.length === 0 ? (
        <p id="no-devices">No command-line client is signed in as you.</p>
      ) : (
        <ActionTable id="devices" label="Devices" columns={["Device", "Mode", "Signed in", "Last used"]}>
          {props.devices.map((d) => (
            <DeviceRowView d={d} csrf={props.f.csrf} />
          ))}
        </ActionTable>
      )}
    </Layout>
  );
}
