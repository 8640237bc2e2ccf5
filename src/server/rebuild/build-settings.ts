/**
 * The settings a build bakes in: the public variables of `astro.config.mjs`'s `env.schema`
 * (Astro inlines them at build: the feature flags, the shop's address, the reviews site...) and
 * the ones the config itself reads (`SITE_URL`, `IMAGE_DOMAINS`, `CHECKOUT_ORIGINS`). `npm start`
 * rebuilds when one of them differs from the build's, so `FEATURE_RESELLER_AREA=true npm start`
 * after a build without it serves the reseller area rather than the earlier build.
 * `tests/unit/build-settings.test.ts` holds this list to the schema.
 *
 * A releases folder (`RELEASES_DIR`) holds the builds of one shop: the first copy to use it
 * records these settings in it (`build-settings.json`, a short hash per setting, no value), and
 * a copy started with other values refuses to share it while another copy serves from it
 * (`shareReleasesFolder`): its builds would be another shop's, and it would prune releases the
 * other copy serves. With no live copy, the new settings replace the record (a shop restarted
 * with a flag changed).
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { liveCopies as liveCopiesOf, writeJsonAtomic, type Heartbeat } from './releases.ts';

export const BUILD_SETTINGS = [
  'BIGCOMMERCE_API_URL',
  'BIGCOMMERCE_CHANNEL_ID',
  'STOREFRONTS',
  'CONTENTFUL_API_URL',
  'CONTENTFUL_SPACE_ID',
  'CONTENTFUL_ENVIRONMENT',
  'BREVO_API_URL',
  'MAIL_SENDER_EMAIL',
  'MAIL_SENDER_NAME',
  'CART_COOKIE_MAX_AGE',
  'SHOP_LOCALE',
  'SHOP_CURRENCY',
  'SHOP_COUNTRY',
  'FEATURE_TRANSACTIONAL',
  'FEATURE_REVIEWS',
  'FEATURE_RESELLER_AREA',
  'COMPANY_ADDRESS',
  'COMPANY_PHONE',
  'COMPANY_EMAIL',
  'SOCIAL_LINKEDIN_URL',
  'SOCIAL_INSTAGRAM_URL',
  'SOCIAL_FACEBOOK_URL',
  'REASSURANCE',
  'REVIEWS_SITE',
  'REVIEWS_API_URL',
  'REVIEWS_WIDGET_URL',
  'REVIEWS_PROVIDER_URL',
  'SUPPORT_URL',
  'GTM_CONTAINER_ID',
  'SUPPORT_FAQ_URL',
  'SUPPORT_REQUEST_URL',
  'SITE_URL',
  'IMAGE_DOMAINS',
  'CHECKOUT_ORIGINS',
] as const;

/**
 * A short fingerprint of the build settings in `env` (an unset variable differs from an empty
 * one): equal for two environments that build the same shop.
 */
export function buildSettingsKey(env: Readonly<Record<string, string | undefined>>): string {
  const values = BUILD_SETTINGS.map((name) => [name, env[name] ?? null]);
  return createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 16);
}

/** What a releases folder's shop is: the build settings and the store it was built from. */
export const FOLDER_SETTINGS = [...BUILD_SETTINGS, 'BIGCOMMERCE_STORE_HASH'] as const;

/** The record of a releases folder's settings. */
export const SETTINGS_FILE = 'build-settings.json';

/** Each folder setting's short hash (null: unset): compared, never shown, no value written. */
export function settingsFingerprints(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | null> {
  return Object.fromEntries(
    FOLDER_SETTINGS.map((name) => {
      const value = env[name];
      const hash =
        value === undefined
          ? null
          : createHash('sha256').update(`${name}=${value}`).digest('hex').slice(0, 16);
      return [name, hash];
    }),
  );
}

/** The settings whose fingerprints differ (a setting missing from a record counts as unset). */
export function differingSettings(
  a: Readonly<Record<string, string | null>>,
  b: Readonly<Record<string, string | null>>,
): string[] {
  return FOLDER_SETTINGS.filter((name) => (a[name] ?? null) !== (b[name] ?? null));
}

/** A record read back, checked: null when the file is not one. */
function parseRecord(text: string): Record<string, string | null> | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const settings = (json as { settings?: unknown } | null)?.settings;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return null;
  const record: Record<string, string | null> = {};
  for (const [name, hash] of Object.entries(settings as Record<string, unknown>)) {
    if (hash !== null && (typeof hash !== 'string' || !/^[0-9a-f]{16}$/.test(hash))) return null;
    record[name] = hash;
  }
  return record;
}

export type FolderShare =
  /** `recorded`: the folder had no record, now ours; `replaced`: no copy was live, now ours. */
  | { ok: true; recorded: 'same' | 'recorded' | 'replaced'; differ: string[] }
  | { ok: false; differ: string[]; copies: string[]; message: string };

/**
 * Whether a copy with the build settings of `env` may use `releasesDir`: yes when the folder
 * records the same settings (or none: then it records them); else only when no other copy is
 * live there (`liveCopies`, which waits a few heartbeats when there are files to watch), and
 * then the record is replaced. `self`: this copy's name, whose own old heartbeat is no other copy.
 */
export async function shareReleasesFolder(options: {
  releasesDir: string;
  env: Readonly<Record<string, string | undefined>>;
  self?: string;
  liveCopies?: (releasesDir: string, self?: string) => Promise<Heartbeat[]>;
}): Promise<FolderShare> {
  const { releasesDir } = options;
  const file = path.join(releasesDir, SETTINGS_FILE);
  const ours = settingsFingerprints(options.env);
  const content = `${JSON.stringify({ key: buildSettingsKey(options.env), settings: ours }, null, 2)}\n`;
  await mkdir(releasesDir, { recursive: true });
  // The first copy records its settings: written aside, then linked in only if none is there
  // (two copies starting at once: one record wins, the other compares with it).
  const aside = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(aside, content, { mode: 0o644 });
  try {
    await link(aside, file);
    return { ok: true, recorded: 'recorded', differ: [] };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(aside, { force: true });
  }
  const recorded = parseRecord(await readFile(file, 'utf8').catch(() => ''));
  const differ =
    recorded === null ? ['(the record is unreadable)'] : differingSettings(recorded, ours);
  if (differ.length === 0) return { ok: true, recorded: 'same', differ };
  const live = await (
    options.liveCopies ??
    ((dir, self) => liveCopiesOf(dir, self === undefined ? {} : { exclude: self }))
  )(releasesDir, options.self);
  if (live.length === 0) {
    await writeJsonAtomic(file, { key: buildSettingsKey(options.env), settings: ours });
    return { ok: true, recorded: 'replaced', differ };
  }
  const copies = live.map((heartbeat) => `${heartbeat.copy} (pid ${String(heartbeat.pid)})`);
  const message =
    `RELEASES_DIR ${releasesDir} holds the releases of a shop built with other settings ` +
    `(${differ.join(', ')} differ${differ.length === 1 ? 's' : ''}), served now by ${copies.join(', ')}: ` +
    `sharing it would serve or delete that shop's releases. Set RELEASES_DIR to a folder of this ` +
    `shop's own (unset, it follows DIST_DIR: DIST_DIR-releases), or start this copy with the same settings.`;
  return { ok: false, differ, copies, message };
}
