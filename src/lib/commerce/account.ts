/**
 * Account rules the browser and the server share (spec §4 authentication): the `authenticated`
 * marker cookie, a UI hint only (the session cookie is what the server trusts).
 */

export const AUTHENTICATED_COOKIE_NAME = 'authenticated';
/** spec §4 / §9: 7 days. */
export const AUTHENTICATED_COOKIE_MAX_AGE = 604_800;

/** Whether the `authenticated` cookie value says "logged in": exactly `1`. */
export function isAuthenticatedMarker(value: string | null | undefined): boolean {
  return value?.trim() === '1';
}
