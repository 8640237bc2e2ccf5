/**
 * The Content-Security-Policy of a pre-rendered page, for the reply's header (the
 * policy first). Astro writes a pre-rendered page's policy in a `<meta http-equiv>`, and
 * BaseLayout puts that meta right after `<meta charset>`, so it covers everything after it;
 * the storefront server also sends it as a `Content-Security-Policy` header, which covers the
 * whole reply.
 *
 * The policy is read only from the document's fixed opening: the doctype, the `<html>` tag,
 * `<head>`, `<meta charset>`, then the policy's meta. Nothing the page carries (JSON-LD,
 * upstream text, comments, attributes) comes before that point, so no text of the page can be
 * taken for the policy; a page that does not open so has none (null): its meta, if any, still
 * applies in the browser. Pure.
 */
import { unescape } from 'html-escaper';

/** The bytes of a page within which its policy must end (charset + policy come first). */
export const POLICY_PREFIX_BYTES = 64 * 1024;

// An attribute of the `<html>` tag: a name, optionally `=` and a quoted or bare value.
const ATTRIBUTE = String.raw`\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>\x60]+))?`;

/** The opening every layout writes (BaseLayout.astro); the policy is its one capture. */
const OPENING = new RegExp(
  String.raw`^\uFEFF?\s*<!doctype html>\s*<html(?:${ATTRIBUTE})*\s*>\s*<head>\s*` +
    String.raw`<meta charset="?utf-8"?\s*/?>\s*` +
    String.raw`<meta http-equiv="content-security-policy" content="([^"<>]*)"\s*/?>`,
  'i',
);

const HEADER_TEXT = /^[\x20-\x7e]+$/;

/** Where the policy's meta ends in `html`: the policy and the index after it, or null. */
export function leadingPolicyMeta(html: string): { policy: string; end: number } | null {
  const opening = html.length > POLICY_PREFIX_BYTES ? html.slice(0, POLICY_PREFIX_BYTES) : html;
  const match = OPENING.exec(opening);
  if (match?.[1] === undefined) return null;
  const policy = unescape(match[1]).trim();
  // A header value: printable ASCII only, and no character reference left that a browser
  // would read differently in the meta (Astro writes a policy with none).
  return HEADER_TEXT.test(policy) && !policy.includes('&')
    ? { policy, end: match[0].length }
    : null;
}

/** The page's policy when its meta directly follows its `<meta charset>`, else null. */
export function pagePolicy(html: string): string | null {
  return leadingPolicyMeta(html)?.policy ?? null;
}
