// `svc admin …`: server administration where the deployment configuration is (direct database access).
import { apikeysCreate } from "./apikeys/create.ts";
import { appsAdd } from "./apps/add.ts";
import { appsList } from "./apps/list.ts";
import { appsRemove } from "./apps/remove.ts";
import { appsRename } from "./apps/rename.ts";
import { bootstrapCommand } from "./bootstrap.ts";
import type { AdminCommand } from "./command.ts";
import { keysGenerate } from "./keys/generate.ts";
import { keysRotate } from "./keys/rotate.ts";
import { keysStatus } from "./keys/status.ts";
import { membersAdd, membersList, membersRemove, membersRole } from "./members/index.ts";
import { operatorKeysCreate } from "./operator-keys/create.ts";
import { operatorKeysList } from "./operator-keys/list.ts";
import { operatorKeysRevoke } from "./operator-keys/revoke.ts";
import { orgDelete } from "./org/delete.ts";
import { orgUpdate } from "./org/update.ts";
import { usersCreate } from "./users/create.ts";
import { usersResetPassword } from "./users/reset-password.ts";

export const adminCommands: AdminCommand[] = [
  bootstrapCommand,
  keysGenerate,
  keysRotate,
  keysStatus,
  usersCreate,
  usersResetPassword,
  apikeysCreate,
  membersList,
  membersAdd,
  membersRole,
  membersRemove,
  orgUpdate,
  orgDelete,
  operatorKeysCreate,
  operatorKeysList,
  operatorKeysRevoke,
  appsAdd,
  appsList,
  appsRename,
  appsRemove,
];

/** Old top-level names that now live under `svc admin` and still work. */
export const LEGACY_ADMIN = new Set(["bootstrap", "keys", "users", "apikeys"]);

export function findAdmin(args: string[]): { cmd: AdminCommand; rest: string[] } | null {
  for (const cmd of adminCommands) {
    const words = cmd.name.split(" ");
    if (words.every((w, i) => args[i] === w)) return { cmd, rest: args.slice(words.length) };
  }
  return null;
}

export const adminUsage = () => `Usage:\n${adminCommands.map((c) => `  ${c.usage}`).join("\n")}`;
