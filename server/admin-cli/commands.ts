import { backup } from "./backup";
import type { Command } from "./command";
import { create } from "./create";
import { deleteMember } from "./delete";
import { exportSite } from "./export-site";
import { gcImages } from "./gc-images";
import { importSite } from "./import-site";
import { list } from "./list";
import { migrateImagesCommand } from "./migrate-images";
import { removeSignInFactorsCommand } from "./remove-sign-in-factors";
import { restore } from "./restore";
import { seedDemo } from "./seed-demo";
import { setPassword } from "./set-password";
import { unlock } from "./unlock";
import { verifyBackupCommand } from "./verify-backup";

/** The commands of `npm run admin`, in the order the help lists them. A new command is a file and a line here. */
export const COMMANDS: Record<string, Command> = {
  create,
  "set-password": setPassword,
  list,
  delete: deleteMember,
  unlock,
  "remove-sign-in-factors": removeSignInFactorsCommand,
  "seed-demo": seedDemo,
  "gc-images": gcImages,
  "migrate-images": migrateImagesCommand,
  "export-site": exportSite,
  "import-site": importSite,
  backup,
  "verify-backup": verifyBackupCommand,
  restore,
};
