/**
 * The placeholder logo (public/logo.svg) as a `data:` address, which the landing page's
 * header and footer show in its place (decision 076): the file is a request Lighthouse's simulation
 * puts before the first paint of a phone, a `data:` address is none. A company's own logo
 * (COMPANY_LOGO_URL) is shown from its address. `logo.test.ts` keeps the two the same picture.
 */
export const PLACEHOLDER_LOGO_URL = "/logo.svg";

const PLACEHOLDER_LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">' +
  '<rect width="64" height="64" rx="14" fill="#1d4ed8"/>' +
  '<path d="M12 31 32 14l20 17" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>' +
  '<path d="M18 29v20a3 3 0 0 0 3 3h22a3 3 0 0 0 3-3V29" fill="none" stroke="#fff" stroke-width="5" stroke-linejoin="round"/>' +
  '<rect x="27.5" y="36" width="9" height="16" rx="1.5" fill="#93c5fd"/>' +
  '<rect x="41" y="15" width="5" height="9" rx="1" fill="#fff"/>' +
  "</svg>";

export const PLACEHOLDER_LOGO_DATA_URL = `data:image/svg+xml,${encodeURIComponent(PLACEHOLDER_LOGO_SVG)}`;

/** Where the page's logo is read from: the placeholder from the page itself, any other from its address. */
export function logoSrc(logoUrl: string): string {
  return logoUrl === PLACEHOLDER_LOGO_URL ? PLACEHOLDER_LOGO_DATA_URL : logoUrl;
}
