// The composition root, above everything: it registers every hook in one list and starts the process roles.
// `server` serves HTTP, `worker` runs the named tasks and the queues, `all` runs both. Start-up migrates in the
// background (retrying 5 s doubling to 1 min) while /readyz answers 503.

import { loadConfig } from "./app/config.ts";
import { type App, createApp } from "./app/context.ts";
import { startTelemetry } from "./app/start-telemetry.ts";
import { MigrationLockTimeout, migrate } from "./db/migrate.ts";
import { onBootstrap } from "./domain/bootstrap/hooks.ts";
import { sandboxChannel } from "./domain/channels/bootstrap.ts";
import { onEvents } from "./domain/events/hooks.ts";
import { wakeStreams } from "./domain/events/stream.ts";
import { type MemberJoinedHook, onMemberJoined } from "./domain/identity/members/hooks.ts";
import { notifyOnEvents } from "./domain/notifications/on-events.ts";
import { type ReportSectionCompute, reportSections } from "./domain/reports/sections.ts";
import { enqueueDeliveries } from "./domain/webhooks/outbox.ts";
import { createHttp } from "./http/server.ts";
import { once } from "./lib/once.ts";
import { tasks, workerLoops } from "./queue/registry.ts";
import { TaskRunner } from "./queue/tasks.ts";

// A member joining is rare: what tells the owners loads when it first happens.
const loadNotifyOnJoin = once(() => import("./domain/notifications/on-join.ts"));
// A report's sections compute only when someone asks for a report.
const lazySection =
  (load: () => Promise<ReportSectionCompute>): ReportSectionCompute =>
  async (app, input) =>
    (await load())(app, input);
const adsReportSection = lazySection(
  async () => (await import("./domain/ads/report-section.ts")).adsReportSection,
);
const engagementSections = async () => await import("./domain/reports/engagement-sections.ts");
const postsSection = lazySection(async () => (await engagementSections()).postsSection);
const engagementSection = lazySection(async () => (await engagementSections()).engagementSection);
const topPostsSection = lazySection(async () => (await engagementSections()).topPostsSection);
const analyticsReportSection = lazySection(
  async () => (await import("./domain/analytics/report-section.ts")).analyticsReportSection,
);
const newslettersReportSection = lazySection(
  async () => (await import("./domain/newsletters/report-section.ts")).newslettersReportSection,
);
const notifyOnJoin: MemberJoinedHook = async (tx, app, joined) =>
  (await loadNotifyOnJoin()).notifyOnJoin(tx, app, joined);

/**
 * Every hook, in one list (as PocketBase hangs hooks on its App). A feature that must act inside another's
 * transaction adds its hook here, never by being imported for a side effect.
 */
export function registerHooks(): void {
  // In each event's own transaction: one webhook delivery per subscribed endpoint (the outbox).
  onEvents(enqueueDeliveries);
  // In the same transaction: live-mode events that people must hear about become notifications.
  onEvents(notifyOnEvents);
  // After it: wake this process's event streams.
  onEvents(wakeStreams);
  // The first brand of a new install gets a test-mode sandbox channel.
  onBootstrap(sandboxChannel);
  // A new member: the org's owners hear of it (not the one who added them).
  onMemberJoined(notifyOnJoin);
  // A report's sections, computed in this order (src/domain/reports/sections.ts): each names the scope a caller
  // needs to see it. Ads and web analytics add theirs after these; newsletters after them.
  reportSections.add("posts", "posts:read", postsSection);
  reportSections.add("engagement", "posts:read", engagementSection);
  reportSections.add("top_posts", "posts:read", topPostsSection);
  reportSections.add("ads", "ads:read", adsReportSection);
  reportSections.add("analytics", "brands:read", analyticsReportSection);
  reportSections.add("newsletters", "newsletters:read", newslettersReportSection);
}

export interface Running {
  url: string | null;
  stop(): Promise<void>;
}

/** Applies migrations until it succeeds (a database that is down or a lock held by another migrator). */
export function migrateInBackground(app: App): { done: Promise<void>; cancel(): void } {
  let canceled = false;
  const done = (async () => {
    for (let delay = 5000; !canceled; delay = Math.min(delay * 2, 60_000)) {
      try {
        const v = await migrate(app.db, app.dialect);
        app.log.info("schema is current", { version: v });
        return;
      } catch (e) {
        app.log.warn("migration failed; retrying", {
          error: e instanceof MigrationLockTimeout ? e.message : String(e),
          retry_in_ms: delay,
        });
        await Bun.sleep(delay);
      }
    }
  })();
  return { done, cancel: () => (canceled = true) };
}

export async function start(app: App, role: "server" | "worker" | "all"): Promise<Running> {
  const stops: (() => Promise<void>)[] = [];
  const migration = app.config.autoMigrate ? migrateInBackground(app) : null;
  let url: string | null = null;

  if (role === "server" || role === "all") {
    const http = createHttp(app);
    const server = Bun.serve({
      hostname: app.config.listenHost,
      port: app.config.listenPort,
      fetch: (req, srv) => http.handle(req, srv.requestIP(req)?.address ?? null),
      idleTimeout: 60,
      // A video upload streams through POST /v1/media, which enforces its own limits; every other route reads at
      // most 1 MiB. Without this Bun refuses bodies over 128 MB before any route sees them.
      maxRequestBodySize: app.config.maxVideoBytes + 1024 * 1024,
    });
    url = `http://${app.config.listenHost === "0.0.0.0" ? "localhost" : app.config.listenHost}:${server.port}`;
    app.log.info("listening", { url, base_url: app.config.baseUrl });
    stops.push(async () => {
      await server.stop();
      await http.ctx.requestLog.flush();
    });
  }

  if (role === "worker" || role === "all") {
    // The worker waits for the schema it knows before it claims anything.
    const workerStarted = (async () => {
      while (!(await app.schemaReady().catch(() => false))) await Bun.sleep(500);
      const runner = new TaskRunner(app, tasks);
      await runner.start();
      const loops = workerLoops.map((l) => l.start(app));
      app.log.info("worker started", { tasks: tasks.length, loops: workerLoops.map((l) => l.name) });
      return async () => {
        await runner.stop();
        await Promise.all(loops.map((l) => l.stop()));
      };
    })();
    stops.push(async () => {
      const stop = await Promise.race([workerStarted, Bun.sleep(100).then(() => null)]);
      if (stop) await stop();
    });
  }

  // Start-up leaves garbage (module parsing, the migration check, the first claims); collect it once the process
  // has settled, so an idle appliance holds only what it uses. Bun.shrink then lets JavaScriptCore drop the code it
  // compiled (module bodies and set-up that never run again; what runs again is compiled anew on its next call)
  // and hand freed memory back: 0.7-1.9 MiB of idle RSS (2026-11-26, side by side with a build without it).
  // bun-types marks Bun.shrink deprecated but names no replacement, and Bun 1.4 still runs it; nothing else in
  // Bun's API asks JavaScriptCore to drop compiled code. Kept until Bun offers one (should it ever become a no-op,
  // idle RSS rises by that much, which bench/start.ts shows).
  setTimeout(() => {
    Bun.gc(true);
    Bun.shrink();
  }, 2000).unref();

  return {
    url,
    async stop() {
      migration?.cancel();
      for (const s of stops.reverse()) await s();
      await app.close();
    },
  };
}

/** `svc server|worker|all`: runs the role until SIGTERM or SIGINT, then gives in-flight work 45 s to finish. */
export async function serve(role: "server" | "worker" | "all"): Promise<number> {
  registerHooks();
  const app = createApp(loadConfig());
  await startTelemetry(app);
  const running = await start(app, role);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  app.log.info("shutting down");
  // Give in-flight work up to 45 s to finish (reference §6), then leave.
  await Promise.race([running.stop(), Bun.sleep(45_000)]);
  await app.telemetry.shutdown(); // the last metrics and spans
  return 0;
}
