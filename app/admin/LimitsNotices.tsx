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
      {held ? <LimitBanner text={LIMITS_TEXT.held(held.count, held.limit, held.last)} link={{ to: inboxHref("held"), label: LIMITS_TEXT.heldLink }} /> : null}
      {refused ? <LimitBanner text={LIMITS_TEXT.refused(refusedParts, refused.last)} urgent={refused.ceiling > 0} /> : null}
      {signIns ? <LimitBanner text={LIMITS_TEXT.signIns(signIns.busy, signIns.limited, signIns.last)} /> : null}
      {joins ? (
        <LimitBanner text={LIMITS_TEXT.joins(joins.limited, joins.limit, joins.last)} link={{ to: tabPath("team"), label: LIMITS_TEXT.joinsLink }} />
      ) : null}
      {resets ? <LimitBanner text={LIMITS_TEXT.resets(resets.count, resets.perAddress, resets.perClient, resets.last)} /> : null}
    </>
  );
}

/**
 * One banner: amber for what a limit held or turned away, red (and announced)
 * when it turned everybody away; a link to where it is dealt with, when there is one.
 */
function LimitBanner({ text, link, urgent = false }: { text: string; link?: { to: string; label: string }; urgent?: boolean }) {
  return (
    <div role={urgent ? "alert" : undefined} className={urgent ? RED : AMBER}>
      <Icon name="exclamation" className={`mt-0.5 size-6 shrink-0 ${urgent ? "text-red-700" : "text-amber-700"}`} />
      <p className="min-w-0">
        {text}
        {link ? (
          <>
            {" "}
            <Link to={link.to} className="font-semibold underline underline-offset-2">
              {link.label}
            </Link>
            .
          </>
        ) : null}
      </p>
    </div>
  );
}
