// Every named task and every long-running worker loop a `svc worker` process runs.

import { adapterFor } from "../platforms/adapter-registry.ts";
import { startPublishWorker } from "./publish/worker.ts";
// Registers the webhook outbox hook in every process that runs the queue.
import { adsCollect } from "./tasks/ads-collect.ts";
import { analyticsCollect } from "./tasks/analytics-collect.ts";
import { channelsCheck } from "./tasks/channels-check.ts";
import { channelsRefresh } from "./tasks/channels-refresh.ts";
import { engagementCollect } from "./tasks/engagement-collect.ts";
import { eventsPrune } from "./tasks/events-prune.ts";
import { idempotencyPrune } from "./tasks/idempotency-prune.ts";
import { identityPrune } from "./tasks/identity-prune.ts";
import { mailSend } from "./tasks/mail-send.ts";
import { mediaPrune } from "./tasks/media-prune.ts";
import { newslettersHandoff } from "./tasks/newsletters-handoff.ts";
import { newslettersRead } from "./tasks/newsletters-read.ts";
import { notificationsPrune } from "./tasks/notifications-prune.ts";
import { notificationsSend } from "./tasks/notifications-send.ts";
import { oauthPrune } from "./tasks/oauth-prune.ts";
import { publishExpire } from "./tasks/publish-expire.ts";
import { publishReclaim } from "./tasks/publish-reclaim.ts";
import { reportsMail } from "./tasks/reports-mail.ts";
import { requestsPrune } from "./tasks/requests-prune.ts";
import { sessionsPrune } from "./tasks/sessions-prune.ts";
import { webhooksDisableFailing } from "./tasks/webhooks-disable-failing.ts";
import { webhooksReclaim } from "./tasks/webhooks-reclaim.ts";
import type { TaskDef } from "./tasks.ts";
import { webhookDeliveryLoop } from "./webhook-deliveries.ts";
import type { WorkerLoop } from "./worker-loop.ts";

export const tasks: TaskDef[] = [
  requestsPrune,
  idempotencyPrune,
  publishReclaim,
  publishExpire,
  webhooksReclaim,
  webhooksDisableFailing,
  eventsPrune,
  mailSend,
  identityPrune,
  sessionsPrune,
  channelsCheck,
  channelsRefresh,
  oauthPrune,
  engagementCollect,
  adsCollect,
  analyticsCollect,
  mediaPrune,
  notificationsSend,
  notificationsPrune,
  reportsMail,
  newslettersHandoff,
  newslettersRead,
];

export const workerLoops: WorkerLoop[] = [
  { name: "publish", start: (app) => startPublishWorker(app, { adapterFor }) },
  webhookDeliveryLoop,
];
