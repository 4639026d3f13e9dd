// oidc-provider ships no types and @types/oidc-provider trails its major versions; the tests use a small part of
// it through oauth-server.ts, typed there.
declare module "oidc-provider" {
  // biome-ignore lint/suspicious/noExplicitAny: see above
  const Provider: any;
  export default Provider;
}
