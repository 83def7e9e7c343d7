import { Link } from "react-router";
import { Icon } from "~/components/Icon";
import { inboxHref } from "./EnquiriesPanel";
import { tabPath } from "./tabs";
import { LIMITS_TEXT } from "./texts";
import type { LimitsNotice } from "./types";

const BANNER = "mb-6 flex gap-3 rounded-xl border-2 px-4 py-3 sm:px-5";
const AMBER = `${BANNER} border-amber-600 bg-amber-50 text-amber-950`;
const RED = `${BANNER} border-red-700 bg-red-50 text-red-950`;

/**
 * A limit that can catch a genuine person says what it caught (decision 037):
 * enquiries held in a flood (amber, with the way to review them), enquiries
 * turned away (red when the hard ceiling refused everyone, amber when only
 * single connections were), sign-ins turned away, (for owners)
 * invitation pages turned away by the limit on links that do not work, and
 * (for owners) requests for a new password turned away.
 */
export function LimitsNotices({ limits }: { limits: LimitsNotice }) {
  const { held, refused, signIns, joins, resets } = limits;
  const refusedParts = refused
    ? [
        ...(refused.ceiling > 0 ? [LIMITS_TEXT.refusedCeiling(refused.ceiling, refused.hardLimit)] : []),
        ...(refused.address > 0 ? [LIMITS_TEXT.refusedAddress(refused.address, refused.rateLimit)] : []),
      ]
    : [];
  return (
    <>
      {held ? (
        <div className={AMBER}>
          <Icon name="exclamation" className="mt-0.5 size-6 shrink-0 text-amber-700" />
          <p className="min-w-0">
            {LIMITS_TEXT.held(held.count, held.limit, held.last)}{" "}
            <Link to={inboxHref("held")} className="font-semibold underline underline-offset-2">
              {LIMITS_TEXT.heldLink}
            </Link>
            .
          </p>
        </div>
      ) : null}
      {refused ? (
        <div role={refused.ceiling > 0 ? "alert" : undefined} className={refused.ceiling > 0 ? RED : AMBER}>
          <Icon name="exclamation" className={`mt-0.5 size-6 shrink-0 ${refused.ceiling > 0 ? "text-red-700" : "text-amber-700"}`} />
          <p className="min-w-0">{LIMITS_TEXT.refused(refusedParts, refused.last)}</p>
        </div>
      ) : null}
      {signIns ? (
        <div className={AMBER}>
          <Icon name="exclamation" className="mt-0.5 size-6 shrink-0 text-amber-700" />
          <p className="min-w-0">{LIMITS_TEXT.signIns(signIns.busy, signIns.limited, signIns.last)}</p>
        </div>
      ) : null}
      {joins ? (
        <div className={AMBER}>
          <Icon name="exclamation" className="mt-0.5 size-6 shrink-0 text-amber-700" />
          <p className="min-w-0">
            {LIMITS_TEXT.joins(joins.limited, joins.limit, joins.last)}{" "}
            <Link to={tabPath("team")} className="font-semibold underline underline-offset-2">
              {LIMITS_TEXT.joinsLink}
            </Link>
            .
          </p>
        </div>
      ) : null}
      {resets ? (
        <div className={AMBER}>
          <Icon name="exclamation" className="mt-0.5 size-6 shrink-0 text-amber-700" />
          <p className="min-w-0">{LIMITS_TEXT.resets(resets.count, resets.perAddress, resets.perClient, resets.last)}</p>
        </div>
      ) : null}
    </>
  );
}
