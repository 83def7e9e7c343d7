import { UsageError, expectArguments } from "./command";

/** The one file argument of export-site and import-site (after import-site's --publish). */
export function fileArgument(command: string, args: string[]): string {
  if (args.length === 0) throw new UsageError(`Give the file, e.g. npm run admin -- ${command} site.json`);
  expectArguments(args, 1);
  return args[0]!;
}
