/**
 * What a new admin password must be. Length is what makes a password hard to
 * guess (NIST SP 800-63B); composition rules mostly make it hard to remember.
 * The upper bound only keeps hashing cheap to refuse.
 */
export const PASSWORD_RULES = { minLength: 12, maxLength: 1024 } as const;

/** Why a password cannot be used, or undefined when it can. */
export function passwordProblem(password: string): string | undefined {
  // Characters, not UTF-16 units: an emoji counts once.
  const length = [...password].length;
  if (length < PASSWORD_RULES.minLength) return `must be at least ${PASSWORD_RULES.minLength} characters long`;
  if (length > PASSWORD_RULES.maxLength) return `must be at most ${PASSWORD_RULES.maxLength} characters long`;
  if (password.trim() === "") return "must not be only spaces";
  return undefined;
}
