// A library loaded on first use: `const loadS3 = once(() => import("@aws-sdk/client-s3"))` imports it the first
// time it is called and hands back the same promise ever after. Whatever a request or a task may never need loads
// this way, so `svc all` starts and idles without it (docs/performance.md, "Start and idle memory").
export function once<T>(load: () => T): () => T {
  let loaded: { value: T } | null = null;
  return () => {
    loaded ??= { value: load() };
    return loaded.value;
  };
}
