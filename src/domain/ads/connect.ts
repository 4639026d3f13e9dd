// POST /v1/ad_accounts (ads:write): connects an ad account read-only. Everything that can be refused without the
// network is refused first (brand, network, mode, fields); then the network checks the credentials outside any
// transaction and names the account and its currency; then the row is saved with its secrets sealed. The first
// collection (30 days) is due at once.
import type { App } from "../../app/context.ts";
import { conflict, invalid, problem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { adNetwork } from "../../platforms/ads/registry.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import {
  CONNECT_TIMEOUT_MS,
  connectRefused,
  modeProblems,
  sealSecrets,
  splitFields,
} from "../insights/fields.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentAdAccount } from "./present.ts";
import { AdAccountCreate } from "./schema.ts";

export async function connectAdAccount(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "ads:write");
  const b = parse(AdAccountCreate, input);
  const brand = await loadBrand(app.db, actor, b.brand);
  const network = adNetwork(b.network);
  if (!network)
    throw invalid([problem("network_unsupported", `There is no ad network ${b.network}.`, "network")]);
  const split = splitFields(network, b.fields ?? {});
  const problems = [...modeProblems(network, actor.livemode, "network"), ...split.problems];
  if (problems.length) throw invalid(problems);

  const adapter = await network.load();
  const signal = AbortSignal.timeout(CONNECT_TIMEOUT_MS);
  const found = await adapter.verify(app, { settings: split.settings, secrets: split.secrets, signal });
  if (found.kind !== "ok") throw connectRefused(network.name, network.key, found);

  const taken = () =>
    conflict(
      "ad_account_connected",
      `${network.name} account ${found.account.external_id} is already connected.`,
      {
        param: "fields",
      },
    );
  const livemode = actor.livemode ? 1 : 0;
  const existing = await app.db
    .selectFrom("ad_accounts")
    .select("id")
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", livemode)
    .where("network", "=", network.key)
    .where("external_id", "=", found.account.external_id)
    .executeTakeFirst();
  if (existing) throw taken();
  const now = app.clock.now();
  const id = newId("adacct", now);
  try {
    return await inTx(app, async (tx) => {
      const row = {
        id,
        org_id: actor.orgId,
        livemode: livemode as 0 | 1,
        brand_id: brand.id,
        network: network.key,
        external_id: found.account.external_id,
        name: found.account.name,
        currency: found.account.currency,
        settings: JSON.stringify(split.settings),
        secrets: await sealSecrets(tx, app, actor.orgId, "ad_accounts", id, split.secrets),
        status: "active",
        status_note: null,
        collected_at: null,
        next_collect_at: now,
        collect_failures: 0,
        last_error: null,
        created_at: now,
        updated_at: now,
      };
      await tx.insertInto("ad_accounts").values(row).execute();
      await audit(tx, app, actor, {
        action: "ad_account.connect",
        target: id,
        detail: { network: network.key, account_id: found.account.external_id, brand: brand.id },
      });
      return presentAdAccount(row);
    });
  } catch (e) {
    // Two connections racing: the unique index decides.
    if (isUniqueViolation(e)) throw taken();
    throw e;
  }
}
