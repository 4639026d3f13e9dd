// Secrets in the OS keychain through Bun.secrets (macOS Keychain, libsecret on Linux, Windows Credential
// Manager): service `svc:<host>`, account `<host>` for the test credential and `<host>#live` for the live one.
// A machine without a reachable keychain (a server, a container, no D-Bus session) answers with an error; the
// caller then keeps the secret in hosts.yaml instead and `auth status` says so.
import type { Mode } from "./hosts.ts";

const service = (host: string) => `svc:${host}`;
const account = (host: string, mode: Mode) => (mode === "live" ? `${host}#live` : host);

/** A keychain call that neither answers nor fails within this time counts as unreachable. */
const TIMEOUT_MS = 3000;

async function withTimeout<T>(p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<T>((_, reject) => {
        timer = setTimeout(() => reject(new Error("the keychain did not answer")), TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Stores the secret; false when no keychain is reachable. */
export async function keychainSet(host: string, mode: Mode, secret: string): Promise<boolean> {
  try {
    await withTimeout(Bun.secrets.set({ service: service(host), name: account(host, mode), value: secret }));
    return true;
  } catch {
    return false;
  }
}

/** The stored secret, null when absent or when the keychain cannot be reached. */
export async function keychainGet(host: string, mode: Mode): Promise<string | null> {
  try {
    return await withTimeout(Bun.secrets.get({ service: service(host), name: account(host, mode) }));
  } catch {
    return null;
  }
}

export async function keychainDelete(host: string, mode: Mode): Promise<void> {
  try {
    await withTimeout(Bun.secrets.delete({ service: service(host), name: account(host, mode) }));
  } catch {
    // Nothing stored, or no keychain: either way nothing is left there.
  }
}
