import { generateMasterKey } from "../../../crypto/master.ts";
import { UsageError } from "../../output.ts";
import { type AdminCommand, flags } from "../command.ts";

export const keysGenerate: AdminCommand = {
  name: "keys generate",
  usage: "svc admin keys generate --id KEY_ID   (prints id:base64key; keep it outside the database)",
  async run(args, io) {
    const f = flags(args, { id: { type: "string" } }, ["id"]);
    try {
      io.out(generateMasterKey(f.id!));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  },
};
