// The App: one object passed everywhere (database, clock, keys, log, config), built once per process.
import { randomBase62 } from "../crypto/hash.ts";
import { Keyring } from "../crypto/keyring.ts";
import { LocalMasterKeys, MasterKeySet, type MasterKeys, parseMasterKeys } from "../crypto/master.ts";
import type { TransitMasterKey as Transit } from "../crypto/transit.ts";
import { type Database, type Db, type Dialect, openDatabase } from "../db/index.ts";
import { latestVersion, migrate, schemaVersion } from "../db/migrate.ts";
import { type Clock, systemClock } from "../lib/clock.ts";
import { closeMailer } from "../mail/mailer.ts";
import { type Config, ConfigError } from "./config.ts";
import { createLogger, type Logger } from "./log.ts";
import { Signals } from "./signals.ts";
import { NO_TELEMETRY, type Telemetry } from "./telemetry.ts";

export interface App {
  config: Config;
  db: Db;
  dialect: Dialect;
  clock: Clock;
  log: Logger;
  keys: Keyring;
  /** Names this process in leases it holds. */
  instanceId: string;
  /** DNS servers for single sign-on's domain check; set by tests only (a local DNS server), else the system's. */
  dnsServers?: string[];
  /** In-process wake-ups (a post became due, an event was written). */
  signals: Signals;
  /** True once the schema is at the version this build knows. */
  schemaReady(): Promise<boolean>;
  /** Applies the migrations this build knows (under the migration lock); resolves to the schema version. */
  migrate(): Promise<number>;
  /** Resolves once this process's commits so far would survive a power loss (see Database.syncWrites). */
  syncWrites(): Promise<void>;
  /** Postgres LISTEN; resolves to a function that stops listening (a no-op on SQLite). */
  listen(channel: string, fn: () => void): Promise<() => Promise<void>>;
  /** Metrics and traces: no-ops until startTelemetry finds an exporter asked for (src/app/telemetry.ts). */
  telemetry: Telemetry;
  close(): Promise<void>;
}

export interface AppOptions {
  clock?: Clock;
  log?: Logger;
  database?: Database;
}

export function createApp(config: Config, opts: AppOptions = {}): App {
  let local: LocalMasterKeys | null = null;
  if (config.masterKeys) {
    try {
      local = new LocalMasterKeys(parseMasterKeys(config.masterKeys));
    } catch (e) {
      throw new ConfigError([`SVC_MASTER_KEYS: ${(e as Error).message}`]);
    }
  }
  // With Transit configured it is primary; local keys beside it still unwrap what they wrapped (the move from
  // local keys to Transit). Nothing calls Transit here: the first data key a request needs does.
  let keys: MasterKeys | null = local;
  if (config.transit) {
    // Loaded only for an install that keeps its master key in Transit (require: createApp is synchronous).
    const { TransitMasterKey } = require("../crypto/transit.ts") as { TransitMasterKey: typeof Transit };
    const transit = new TransitMasterKey({ ...config.transit, now: () => (opts.clock ?? systemClock).now() });
    keys = new MasterKeySet(transit, local);
  }
  const database =
    opts.database ??
    openDatabase(config.dialect === "sqlite" ? `sqlite:${config.sqlitePath}` : config.databaseUrl);
  let ready = false;
  const app: App = {
    config,
    db: database.db,
    dialect: database.dialect,
    clock: opts.clock ?? systemClock,
    // Inside a span, a record carries its trace_id and span_id (only once telemetry is on).
    log: opts.log ?? createLogger(config.logLevel, undefined, () => app.telemetry.logContext()),
    keys: new Keyring(keys, database.db),
    instanceId: `${process.pid}-${randomBase62(8)}`,
    signals: new Signals(),
    async schemaReady() {
      // Once current, stays current for this process: a newer schema still serves this build (expand/contract).
      if (!ready) ready = (await schemaVersion(database.db)) >= latestVersion();
      return ready;
    },
    migrate: () => migrate(database.db, database.dialect),
    listen: (channel, fn) => database.listen(channel, fn),
    syncWrites: async () => database.syncWrites?.(),
    telemetry: NO_TELEMETRY,
    close: async () => {
      closeMailer(app);
      await app.telemetry.shutdown();
      await database.close();
    },
  };
  return app;
}
