/**
 * The shop's environment on the Node side: ONE table of every variable (its zod rule and its
 * one default), read by the server, the scripts and the build alike (`astro.config.mjs`
 * included, which also generates Astro's `env.schema` from this table: `astro-env.ts`).
 *
 * - `readEnvironment(names, env)` parses the named variables of `env` (default
 *   `process.env`) and returns their typed values, or throws one `EnvironmentError` naming each
 *   bad variable. A blank value is unset. A variable the running shop cannot do without
 *   (`required`: a secret such as `SESSION_SECRET`) is `undefined` here when unset: Astro's
 *   schema refuses it at build and start, and a script may run before it is set.
 * - `parseVariable(name, text)` parses one value as the table does (the documented examples'
 *   test parses each through it).
 *
 * Nothing else reads a shop variable from an environment object (`process.env.X`, `env.X`):
 * `tests/unit/module-boundaries.test.ts` fails on a reader elsewhere. Pure: no I/O, no Astro.
 * Where each variable is documented: `src/shop/config/README.md`.
 */
import * as z from 'zod';
import { parseStorefrontConfig } from '../../lib/commerce/storefront.ts';
import { FEATURE_DEFAULTS, FEATURE_VARIABLES, type Features } from '../../lib/features.ts';
import { CONTENTFUL_DELIVERY_URL } from '../connectors/contentful/endpoint.ts';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS } from './log.ts';
import {
  DEFAULT_REVIEWS_API_URL,
  DEFAULT_REVIEWS_WIDGET_URL,
} from '../connectors/reviews/sites.ts';

/** Where Astro's `env.schema` declares a variable (only those it declares have one). */
interface AstroPlace {
  context: 'server' | 'client';
  access: 'public' | 'secret';
}

/** What Astro's schema checks of a variable, generated from the same rule (`astro-env.ts`). */
type AstroCheck =
  | { type: 'string'; url?: true; min?: number; max?: number; startsWith?: string }
  | { type: 'number'; int: true; gt?: number; min?: number; max?: number }
  | { type: 'boolean' }
  | { type: 'enum'; values: readonly string[] };

/** One variable: its rule (raw text → value), its default, and its place in Astro's schema. */
interface Variable<T> {
  readonly schema: z.ZodType<T>;
  /** The value when unset (the one default of the shop, the build and the scripts). */
  readonly default: T | undefined;
  /** Astro refuses to build or start without it (no default). */
  readonly required: boolean;
  readonly check: AstroCheck;
  readonly astro: AstroPlace | undefined;
}

/** Unset or blank → undefined. */
const blankAsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

function variable<T>(
  rule: z.ZodType<T, string>,
  check: AstroCheck,
  options: { default?: T; required?: boolean; astro?: AstroPlace; blankIsUnset?: boolean },
): Variable<T> {
  const fallback = options.default;
  // Astro takes an empty value as a value (an empty social link hides it; an empty number is
  // refused): so does this table for the variables Astro declares, unless said otherwise. The
  // others, read by the server and the scripts only, take a blank value as unset.
  const blankIsUnset = options.blankIsUnset ?? options.astro === undefined;
  const schema = z.preprocess(
    (value) => (blankIsUnset ? blankAsUnset(value) : value),
    rule.optional().transform((value) => value ?? fallback),
  ) as unknown as z.ZodType<T>;
  return {
    schema,
    default: fallback,
    required: options.required === true,
    check,
    astro: options.astro,
  };
}

interface TextOptions {
  url?: true;
  min?: number;
  max?: number;
  startsWith?: string;
  astro?: AstroPlace;
}

function textRule(options: TextOptions): z.ZodType<string, string> {
  let rule = z.string();
  if (options.min !== undefined)
    rule = rule.min(options.min, `must be at least ${options.min} characters`);
  if (options.max !== undefined)
    rule = rule.max(options.max, `must be at most ${options.max} characters`);
  if (options.startsWith !== undefined) {
    rule = rule.startsWith(options.startsWith, `must start with ${options.startsWith}`);
  }
  if (options.url === true) rule = rule.refine((value) => URL.canParse(value), 'must be a URL');
  return rule;
}

function textCheck(options: TextOptions): AstroCheck {
  const { url, min, max, startsWith } = options;
  return {
    type: 'string',
    ...(url === undefined ? {} : { url }),
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
    ...(startsWith === undefined ? {} : { startsWith }),
  };
}

/** A text with a default: always a string. */
function text(value: string, options: TextOptions = {}): Variable<string> {
  return variable(textRule(options), textCheck(options), { ...options, default: value });
}

/** A text without a default: `undefined` when unset. */
function optionalText(
  options: TextOptions & { required?: boolean } = {},
): Variable<string | undefined> {
  return variable<string | undefined>(textRule(options), textCheck(options), options);
}

/** A whole number within bounds, written in digits. */
function whole(
  value: number,
  bounds: { min: number; max?: number },
  astro?: AstroPlace,
): Variable<number> {
  let rule = z.number().int().min(bounds.min, `must be at least ${bounds.min}`);
  if (bounds.max !== undefined) rule = rule.max(bounds.max, `must be at most ${bounds.max}`);
  return variable(
    z.string().trim().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(rule),
    {
      type: 'number',
      int: true,
      min: bounds.min,
      ...(bounds.max === undefined ? {} : { max: bounds.max }),
    },
    { default: value, ...(astro === undefined ? {} : { astro }) },
  );
}

/** A port without a default: `undefined` when unset (the listener is then not opened). */
function optionalPort(): Variable<number | undefined> {
  return variable<number | undefined>(
    z
      .string()
      .trim()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(1, 'must be at least 1').max(65_535, 'must be at most 65535')),
    { type: 'number', int: true, min: 1, max: 65_535 },
    {},
  );
}

/** `true` or `false`, the way Astro reads a boolean. */
function flag(value: boolean, astro: AstroPlace): Variable<boolean> {
  return variable(
    z.enum(['true', 'false'], 'must be true or false').transform((word) => word === 'true'),
    { type: 'boolean' },
    { default: value, astro },
  );
}

/** One word of a list. */
function oneOf<const V extends string>(
  values: readonly [V, ...V[]],
  value: V,
  astro?: AstroPlace,
): Variable<V> {
  return variable(
    z
      .string()
      .trim()
      .pipe(z.enum(values, `must be one of ${values.join(', ')}`)),
    { type: 'enum', values },
    // Blank is the default: the storefront server has always read an empty LOG_LEVEL so.
    { default: value, blankIsUnset: true, ...(astro === undefined ? {} : { astro }) },
  );
}

/** A JSON text, parsed by `parse` (which throws an Error with the reason on a bad value). */
function json<T>(parse: (json: string) => T, astro: AstroPlace): Variable<T | undefined> {
  const rule = z.string().transform((value, context): T => {
    try {
      return parse(value);
    } catch (error) {
      context.addIssue({
        code: 'custom',
        message: error instanceof Error ? error.message : String(error),
      });
      return z.NEVER;
    }
  });
  // Blank is unset: the shop reads an empty JSON setting as none.
  return variable<T | undefined>(rule, { type: 'string' }, { astro, blankIsUnset: true });
}

/** Printable ASCII without spaces: a header value, copied from a dashboard without surprises. */
const PRINTABLE = /^[\x21-\x7e]+$/;

/** A secret of the storefront server (webhooks, status token): length bounds, printable. */
function printableSecret(
  min: number,
  max: number,
  lengthMessage?: string,
): Variable<string | undefined> {
  let rule = z.string();
  rule =
    min === max
      ? rule.length(min, lengthMessage ?? `must be ${min} characters`)
      : rule
          .min(min, `must be at least ${min} characters`)
          .max(max, `must be at most ${max} characters`);
  return variable<string | undefined>(
    rule.regex(PRINTABLE, 'must be printable characters without spaces'),
    { type: 'string', min, max },
    {},
  );
}

/** The reassurance columns' shape (their icons are checked where they render). */
const ReassuranceShape = z
  .array(
    z.strictObject({
      title: z.string().trim().min(1),
      text: z.string().optional(),
      icon: z.string().optional(),
    }),
  )
  .length(3, 'must be three columns');

function parseReassuranceShape(value: string): z.output<typeof ReassuranceShape> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error('is not valid JSON');
  }
  const result = ReassuranceShape.safeParse(parsed);
  if (!result.success) throw new Error(z.prettifyError(result.error).replaceAll('\n', ' '));
  return result.data;
}

const SERVER_PUBLIC: AstroPlace = { context: 'server', access: 'public' };
const SERVER_SECRET: AstroPlace = { context: 'server', access: 'secret' };
const CLIENT_PUBLIC: AstroPlace = { context: 'client', access: 'public' };

/**
 * Every variable of the shop, in the order of the settings table. Astro's `env.schema` is the
 * entries with an `astro` place (`astro-env.ts`); the others are read at build by
 * `astro.config.mjs`, at run time by the storefront server, or by the scripts.
 */
export const VARIABLES = {
  // ── BigCommerce ──
  BIGCOMMERCE_API_URL: text('https://api.bigcommerce.com', { url: true, astro: SERVER_PUBLIC }),
  BIGCOMMERCE_STORE_HASH: optionalText({ required: true, astro: SERVER_SECRET }),
  BIGCOMMERCE_ACCESS_TOKEN: optionalText({ required: true, astro: SERVER_SECRET }),
  BIGCOMMERCE_CHANNEL_ID: variable(
    z
      .string()
      .trim()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().gt(0, 'must be greater than 0')),
    { type: 'number', int: true, gt: 0 },
    { default: 1, astro: SERVER_PUBLIC },
  ),
  // spec §3: the storefront per host, `{"default":{…},"hosts":{"<host>":{…}}}`.
  STOREFRONTS: json(parseStorefrontConfig, SERVER_PUBLIC),
  BIGCOMMERCE_CLIENT_ID: optionalText({ required: true, astro: SERVER_SECRET }),
  BIGCOMMERCE_CLIENT_SECRET: optionalText({ required: true, astro: SERVER_SECRET }),
  // ── Sessions and shared state ──
  SESSION_SECRET: optionalText({ required: true, min: 32, astro: SERVER_SECRET }),
  // Read at run time (secret), so one build serves any deployment.
  REDIS_URL: optionalText({ astro: SERVER_SECRET }),
  STATE_DIR: optionalText({ astro: SERVER_SECRET }),
  TRUSTED_PROXIES: optionalText(),
  // ── Contentful ──
  CONTENTFUL_SPACE_ID: optionalText({ required: true, astro: SERVER_PUBLIC }),
  CONTENTFUL_ENVIRONMENT: text('master', { astro: SERVER_PUBLIC }),
  CONTENTFUL_ACCESS_TOKEN: optionalText({ required: true, astro: SERVER_SECRET }),
  CONTENTFUL_API_URL: text(CONTENTFUL_DELIVERY_URL, { url: true, astro: SERVER_PUBLIC }),
  // ── Brevo ──
  BREVO_API_URL: text('https://api.brevo.com/v3', { url: true, astro: SERVER_PUBLIC }),
  BREVO_API_KEY: optionalText({ required: true, astro: SERVER_SECRET }),
  MAIL_SENDER_EMAIL: text('contact@literie-exemple.fr', { astro: SERVER_PUBLIC }),
  MAIL_SENDER_NAME: text('Literie', { astro: SERVER_PUBLIC }),
  // ── The shop ──
  // spec §9: the cart cookie's lifetime comes from configuration (seconds; 30 days).
  CART_COOKIE_MAX_AGE: variable(
    z
      .string()
      .trim()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().gt(0, 'must be greater than 0')),
    { type: 'number', int: true, gt: 0 },
    { default: 2_592_000, astro: CLIENT_PUBLIC },
  ),
  SITE_URL: text('http://localhost:4321', { url: true }),
  IMAGE_DOMAINS: optionalText(),
  CHECKOUT_ORIGINS: optionalText(),
  BUILD_RENDER_THREADS: optionalText(),
  SHOP_LOCALE: text('fr', { astro: SERVER_PUBLIC }),
  SHOP_CURRENCY: text('EUR', { astro: SERVER_PUBLIC }),
  SHOP_COUNTRY: text('FR', { astro: SERVER_PUBLIC }),
  // Feature flags (names and rules: src/lib/features.ts).
  FEATURE_TRANSACTIONAL: flag(FEATURE_DEFAULTS.transactional, CLIENT_PUBLIC),
  FEATURE_REVIEWS: flag(FEATURE_DEFAULTS.reviews, CLIENT_PUBLIC),
  FEATURE_RESELLER_AREA: flag(FEATURE_DEFAULTS.resellerArea, CLIENT_PUBLIC),
  COMPANY_ADDRESS: text('12 rue des Dormeurs, 69003 Lyon', { astro: CLIENT_PUBLIC }),
  COMPANY_PHONE: text('04 78 00 00 00', { astro: CLIENT_PUBLIC }),
  COMPANY_EMAIL: text('contact@literie-exemple.fr', { astro: CLIENT_PUBLIC }),
  // spec §1: the footer's three social links, sample values as for the company address.
  SOCIAL_LINKEDIN_URL: text('https://www.linkedin.com/company/literie-exemple', {
    astro: CLIENT_PUBLIC,
  }),
  SOCIAL_INSTAGRAM_URL: text('https://www.instagram.com/literie.exemple', {
    astro: CLIENT_PUBLIC,
  }),
  SOCIAL_FACEBOOK_URL: text('https://www.facebook.com/literie.exemple', { astro: CLIENT_PUBLIC }),
  // spec §2: three `{ title, text, icon }` columns; a bad value shows the defaults, with a
  // warning (src/shop/view-models/layout/reassurance.ts).
  REASSURANCE: json(parseReassuranceShape, CLIENT_PUBLIC),
  REVIEWS_PROVIDER_URL: optionalText({ astro: CLIENT_PUBLIC }),
  // spec §3: which of the group's brand sites the shop shows (src/shop/connectors/reviews/sites.ts).
  REVIEWS_SITE: optionalText({ astro: SERVER_PUBLIC }),
  REVIEWS_API_URL: text(DEFAULT_REVIEWS_API_URL, { url: true, astro: SERVER_PUBLIC }),
  REVIEWS_WIDGET_URL: text(DEFAULT_REVIEWS_WIDGET_URL, { url: true, astro: SERVER_PUBLIC }),
  // spec §7: the tag-manager container (`GTM-XXXXXXX`); tag-manager.ts checks the whole form.
  GTM_CONTAINER_ID: optionalText({ startsWith: 'GTM-', max: 16, astro: CLIENT_PUBLIC }),
  SUPPORT_URL: optionalText({ astro: CLIENT_PUBLIC }),
  // spec §9 support site links; default: SUPPORT_URL and {SUPPORT_URL}/requests/new.
  SUPPORT_FAQ_URL: optionalText({ astro: CLIENT_PUBLIC }),
  SUPPORT_REQUEST_URL: optionalText({ astro: CLIENT_PUBLIC }),
  // spec §9 "Default log verbosity: error". Read at run time (secret: not inlined in the build).
  LOG_LEVEL: oneOf(LOG_LEVELS, DEFAULT_LOG_LEVEL, SERVER_SECRET),
  // ── Local servers and the scripts ──
  PORT: whole(4321, { min: 0, max: 65_535 }),
  HOST: text('127.0.0.1'),
  // The supervisor's Prometheus metrics (src/server/metrics-endpoint.ts): unset, no listener.
  METRICS_PORT: optionalPort(),
  METRICS_HOST: text('127.0.0.1'),
  SANDBOX_PORT: whole(4010, { min: 0, max: 65_535 }),
  SANDBOX_DIR: text('.sandbox'),
  // `sandbox` forces the sandbox even with credentials set.
  UPSTREAM: optionalText(),
  // The build's folder (the storefront server serves it; the checks read it).
  DIST_DIR: text('dist'),
  // ── Webhooks and rebuilds (src/server/rebuild/config.ts) ──
  CONTENTFUL_WEBHOOK_SECRET: printableSecret(
    64,
    64,
    'must be 64 characters (Contentful webhook signing secret)',
  ),
  BIGCOMMERCE_WEBHOOK_SECRET: printableSecret(32, 256),
  REBUILD_STATUS_TOKEN: printableSecret(32, 256),
  RELEASES_DIR: optionalText(),
  SERVER_WORKERS: whole(1, { min: 1, max: 16 }),
  REBUILD_DEBOUNCE_MS: whole(1500, { min: 0, max: 600_000 }),
  PUBLISH_DEBOUNCE_MS: whole(300, { min: 0, max: 600_000 }),
  REBUILD_TIMEOUT_MS: whole(1_800_000, { min: 10_000, max: 6 * 3_600_000 }),
  REBUILD_COMMAND: optionalText(),
  PUBLISH_EDITS: oneOf(['0', '1'], '1'),
  FULL_BUILD_EVERY_HOURS: whole(24, { min: 0, max: 24 * 365 }),
  PUBLISH_TIMEOUT_MS: whole(90_000, { min: 1_000, max: 6 * 3_600_000 }),
  FETCH_TIMEOUT_MS: whole(30_000, { min: 100, max: 600_000 }),
  // ── The drained stop (src/server/shutdown.ts) ──
  SHUTDOWN_DELAY_MS: whole(5_000, { min: 0, max: 600_000 }),
  SHUTDOWN_TIMEOUT_MS: whole(25_000, { min: 100, max: 600_000 }),
} as const;

export type VariableName = keyof typeof VARIABLES;

/** The parsed value of each variable. */
type Environment = {
  [K in VariableName]: (typeof VARIABLES)[K] extends Variable<infer T> ? T : never;
};

/** A bad value of one or more variables; the message names each. */
export class EnvironmentError extends Error {
  override name = 'EnvironmentError';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`invalid environment: ${problems.join('; ')}`);
    this.problems = problems;
  }
}

type Source = Readonly<Record<string, string | undefined>>;

/**
 * The named variables of `env`, parsed by the table (blank is unset; unset is the default).
 * Throws an `EnvironmentError` naming every bad one.
 */
export function readEnvironment<const N extends VariableName>(
  names: readonly N[],
  env: Source = process.env,
): Pick<Environment, N> {
  const values: Partial<Record<VariableName, unknown>> = {};
  const problems: string[] = [];
  for (const name of names) {
    const parsed = VARIABLES[name].schema.safeParse(env[name]);
    if (parsed.success) values[name] = parsed.data;
    else problems.push(...parsed.error.issues.map((issue) => `${name} ${issue.message}`));
  }
  if (problems.length > 0) throw new EnvironmentError(problems);
  return values as Pick<Environment, N>;
}

/** One value parsed as the table parses it (blank: the default). */
export function parseVariable<N extends VariableName>(name: N, value: string): Environment[N] {
  return readEnvironment([name], { [name]: value })[name];
}

/**
 * The feature flags of `env` the way `astro:env` reads them (`true` or `false`, unset the
 * default, anything else refused), for `astro.config.mjs`, which runs before `astro:env` exists.
 */
export function featuresFromEnv(env: Source = process.env): Features {
  const values = readEnvironment(Object.values(FEATURE_VARIABLES), env);
  return Object.freeze({
    transactional: values[FEATURE_VARIABLES.transactional],
    reviews: values[FEATURE_VARIABLES.reviews],
    resellerArea: values[FEATURE_VARIABLES.resellerArea],
  });
}
