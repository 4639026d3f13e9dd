// Every client command, found by its words (`posts list`); `svc posts` alone lists the group's commands.
import { adsConnect } from "../ads/connect.ts";
import { adsGet } from "../ads/get.ts";
import { adsList } from "../ads/list.ts";
import { adsNetworks } from "../ads/networks.ts";
import { adsRemove } from "../ads/remove.ts";
import { adsSummary } from "../ads/summary.ts";
import { analyticsConnect } from "../analytics/connect.ts";
import { analyticsGet } from "../analytics/get.ts";
import { analyticsList } from "../analytics/list.ts";
import { analyticsProviders } from "../analytics/providers.ts";
import { analyticsRemove } from "../analytics/remove.ts";
import { analyticsSummary } from "../analytics/summary.ts";
import { apiCommand } from "../api/api.ts";
import { authLogin } from "../auth/login.ts";
import { authLogout } from "../auth/logout.ts";
import { authStatus } from "../auth/status.ts";
import { authSwitch } from "../auth/switch.ts";
import { authToken } from "../auth/token.ts";
import { channelsList } from "../channels/list.ts";
import { listenCommand } from "../listen/listen.ts";
import { membersInvite } from "../members/invite.ts";
import { membersList } from "../members/list.ts";
import { membersRemove } from "../members/remove.ts";
import { membersRole } from "../members/role.ts";
import { newslettersGet } from "../newsletters/get.ts";
import { newslettersList } from "../newsletters/list.ts";
import { newslettersPreview } from "../newsletters/preview.ts";
import { newslettersCancel, newslettersSchedule } from "../newsletters/schedule.ts";
import { orgUpdate } from "../org/update.ts";
import { orgView } from "../org/view.ts";
import { postsApprove } from "../posts/approve.ts";
import { postsCancel } from "../posts/cancel.ts";
import { postsCreate } from "../posts/create.ts";
import { postsDeletePublished } from "../posts/delete-published.ts";
import { postsEdit } from "../posts/edit.ts";
import { postsGet } from "../posts/get.ts";
import { postsList } from "../posts/list.ts";
import { postsMarkPublished } from "../posts/mark-published.ts";
import { postsPreview } from "../posts/preview.ts";
import { postsReject } from "../posts/reject.ts";
import { postsReschedule } from "../posts/reschedule.ts";
import { postsRetry } from "../posts/retry.ts";
import { reportsView } from "../reports/view.ts";
import { reviewLinksCreate } from "../review-links/create.ts";
import { reviewLinksList } from "../review-links/list.ts";
import { reviewLinksWithdraw } from "../review-links/withdraw.ts";
import { templatesGet } from "../templates/get.ts";
import { templatesList } from "../templates/list.ts";
import type { ClientCommand } from "./command.ts";

export const clientCommands: ClientCommand[] = [
  authLogin,
  authStatus,
  authToken,
  authLogout,
  authSwitch,
  channelsList,
  templatesList,
  templatesGet,
  postsList,
  postsGet,
  postsPreview,
  postsCreate,
  postsEdit,
  postsReschedule,
  postsApprove,
  postsReject,
  postsCancel,
  postsRetry,
  postsMarkPublished,
  postsDeletePublished,
  reviewLinksList,
  reviewLinksCreate,
  reviewLinksWithdraw,
  newslettersList,
  newslettersGet,
  newslettersPreview,
  newslettersSchedule,
  newslettersCancel,
  membersList,
  membersInvite,
  membersRole,
  membersRemove,
  orgView,
  orgUpdate,
  adsNetworks,
  adsList,
  adsConnect,
  adsGet,
  adsRemove,
  adsSummary,
  analyticsProviders,
  analyticsList,
  analyticsConnect,
  analyticsGet,
  analyticsRemove,
  analyticsSummary,
  reportsView,
  apiCommand,
  listenCommand,
];

export const clientGroups = new Set(clientCommands.map((c) => c.name.split(" ")[0]!));

export function findClient(argv: string[]): { cmd: ClientCommand; rest: string[] } | null {
  for (const cmd of clientCommands) {
    const words = cmd.name.split(" ");
    if (words.every((w, i) => argv[i] === w)) return { cmd, rest: argv.slice(words.length) };
  }
  return null;
}

export function groupUsage(group: string): string {
  const cmds = clientCommands.filter((c) => c.name.split(" ")[0] === group);
  const w = Math.max(...cmds.map((c) => c.name.length));
  return `Usage:\n${cmds.map((c) => `  svc ${c.name.padEnd(w)}  ${c.summary}`).join("\n")}\n\nRun 'svc ${group} <command> --help' for a command's flags.`;
}

export function clientUsage(): string {
  const w = Math.max(...clientCommands.map((c) => c.name.length));
  return clientCommands.map((c) => `  svc ${c.name.padEnd(w)}  ${c.summary}`).join("\n");
}
