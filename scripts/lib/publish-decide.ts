/**
 * Which pages a commerce edit touches, for the kept-alive build (publisher-loop.ts). Until the
 * table of what each page reads is in (src/lib/server/publish), every edit asks for a full
 * build: slower, never stale.
 */
import type { Decide } from './publisher-loop.ts';

export const decide: Decide = () => ({
  kind: 'full',
  reason: 'which pages an edit touches is not known yet: a full build publishes it',
});
