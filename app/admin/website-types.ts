import type { SectionErrors, SiteContent, SiteSection, VersionSummary } from "~/website/content";

export type WebsiteNotice = { kind: "success" | "error" | "info"; text: string };

export type WebsiteView =
  | {
      status: "ok";
      section: SiteSection;
      content: SiteContent;
      revision: number;
      unpublished: boolean;
      lastSaved: { when: string; by: string } | undefined;
      versions: Array<VersionSummary & { publishedLabel: string }>;
      notice: WebsiteNotice | undefined;
      /** A publish set for later: when (London time), by whom, and whether the draft changed since. */
      schedule: { label: string; by: string; ofCurrentDraft: boolean } | undefined;
    }
  | { status: "error"; section: SiteSection };

export type WebsiteActionData = {
  notice?: WebsiteNotice;
  /** A refused section save: the section, what was typed, and each field's problem. */
  section?: SiteSection;
  values?: Record<string, string>;
  errors?: SectionErrors;
};
