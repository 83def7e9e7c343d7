import { cliActor } from "~/audit/actor";
import { auditWorkDone } from "~/audit/audit.server";
import { IMAGE_NAMING } from "~/images/image-files";
import { migrateImages } from "~/images/migrate.server";
import { openImageStorage } from "~/platform/config/services.server";
import { type Command, UsageError, count } from "./command";

export const migrateImagesCommand: Command = {
  arguments: "--to s3|disk",
  summary: `Copy every image from DATA_DIR/images to the S3 bucket (--to s3) or back (--to disk),
checking each copy byte for byte. Needs S3_BUCKET (and S3_ENDPOINT, keys… as needed).
Run it again: what is there already is compared, never overwritten.`,
  async run({ args, say, warn, settings, site }) {
    const [flag, where, ...rest] = args.length === 1 && args[0]!.startsWith("--to=") ? ["--to", args[0]!.slice(5)] : args;
    if (flag !== "--to" || (where !== "s3" && where !== "disk") || rest.length > 0) {
      throw new UsageError("Expected --to s3 or --to disk, e.g. npm run admin -- migrate-images --to s3");
    }
    const env = settings();
    if (!env.s3) {
      throw new UsageError(
        "Set S3_BUCKET (and S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE as needed) to the bucket to copy " +
          (where === "s3" ? "to." : "from."),
      );
    }
    const { db } = (await site()).services;
    const disk = openImageStorage(env, IMAGE_NAMING, "disk");
    const s3 = openImageStorage(env, IMAGE_NAMING, "s3");
    const [from, to] = where === "s3" ? [disk, s3] : [s3, disk];
    say(`Copying images from the ${from.description} to the ${to.description}.`);
    const report = await migrateImages(from, to, (name, outcome) => {
      if (outcome === "different") warn(`${name}: the target has other bytes under this name; left as it is.`);
    });
    await auditWorkDone(db, { actor: cliActor("migrate-images"), action: "files-copied", details: { count: report.copied.length } });
    const total = report.copied.length + report.alreadyThere.length;
    say(
      `Copied ${count(report.copied.length, "file")}; ${report.alreadyThere.length} already there; ` +
        `all ${total} read back and identical.` +
        (report.vanished.length ? ` ${report.vanished.length} removed from the source meanwhile.` : ""),
    );
    if (report.different.length > 0) {
      warn(`${count(report.different.length, "file")} differ at the target (listed above): nothing was overwritten.`);
      return 1;
    }
    return 0;
  },
};
