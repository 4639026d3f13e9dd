// The adapter registry loads each network's adapter on first use; what it tells callers before that (whether a
// retry is safe, which optional calls the adapter has, its consistency window) must be what the adapter says.
import { expect, test } from "bun:test";
import { adapterFor, deferredAdapters } from "../../src/platforms/adapter-registry.ts";

for (const d of deferredAdapters) {
  test(`${d.provider}: the registry's entry matches the adapter it loads`, async () => {
    const real = await d.load();
    const listed = adapterFor(d.provider)!;
    const shape = (a: typeof real) => ({
      provider: a.provider,
      idempotent: a.idempotent,
      consistencyWindowMs: a.consistencyWindowMs,
      connect: typeof a.connect,
      engagement: typeof a.engagement,
      find: typeof a.find,
      deletePublished: typeof a.deletePublished,
    });
    expect(shape(listed)).toEqual(shape(real));
  });
}
