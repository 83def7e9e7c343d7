import * as initial from "./001-initial";
import * as adminAuth from "./002-admin-auth";
import * as galleryImages from "./003-gallery-images";
import * as enquiryDelivery from "./004-enquiry-delivery";
import * as publicDataVersion from "./005-public-data-version";
import * as signInHistory from "./006-sign-in-history";
import * as possibleSpam from "./007-possible-spam";
import * as foldedEmails from "./008-folded-emails";
import * as siteContent from "./009-site-content";
import * as jobRuns from "./010-job-runs";
import * as limitCounts from "./011-limit-counts";
import * as teamAndAudit from "./012-team-and-audit";
import * as signInFactors from "./013-sign-in-factors";
import * as joinWithAPasskey from "./014-join-with-a-passkey";
import * as enquiryStatus from "./015-enquiry-status";
import * as enquiryNotes from "./016-enquiry-notes";
import * as valuationRequests from "./017-valuation-requests";
import * as enquirySearch from "./018-enquiry-search";
import * as enquiryReplies from "./019-enquiry-replies";
import * as firstResponse from "./020-first-response";
import * as assignmentAndFollowUp from "./021-assignment-and-follow-up";
import * as enquiryCounts from "./022-enquiry-counts";
import * as searchTheProperty from "./023-search-the-property";
import * as searchIndexPerCommit from "./024-search-index-per-commit";
import * as lessWrittenPerEnquiry from "./025-less-written-per-enquiry";
import type { AppMigration } from "./types";

/**
 * Every migration, in order. Imported statically (not read from a folder at
 * run time) so they travel inside the server bundle. Never edit one that has
 * shipped: add the next.
 */
export const migrations: Record<string, AppMigration> = {
  "001-initial": initial,
  "002-admin-auth": adminAuth,
  "003-gallery-images": galleryImages,
  "004-enquiry-delivery": enquiryDelivery,
  "005-public-data-version": publicDataVersion,
  "006-sign-in-history": signInHistory,
  "007-possible-spam": possibleSpam,
  "008-folded-emails": foldedEmails,
  "009-site-content": siteContent,
  "010-job-runs": jobRuns,
  "011-limit-counts": limitCounts,
  "012-team-and-audit": teamAndAudit,
  "013-sign-in-factors": signInFactors,
  "014-join-with-a-passkey": joinWithAPasskey,
  "015-enquiry-status": enquiryStatus,
  "016-enquiry-notes": enquiryNotes,
  "017-valuation-requests": valuationRequests,
  "018-enquiry-search": enquirySearch,
  "019-enquiry-replies": enquiryReplies,
  "020-first-response": firstResponse,
  "021-assignment-and-follow-up": assignmentAndFollowUp,
  "022-enquiry-counts": enquiryCounts,
  "023-search-the-property": searchTheProperty,
  "024-search-index-per-commit": searchIndexPerCommit,
  "025-less-written-per-enquiry": lessWrittenPerEnquiry,
};
