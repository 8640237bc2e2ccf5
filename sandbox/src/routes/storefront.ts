/**
 * The sandbox's hosted storefront, outside `/stores/` and without a token, standing in for the
 * pages BigCommerce serves on the store's domain:
 *
 * - `GET /cart.php?action=load&id={cartId}&token={token}`: a small French checkout page (the
 *   `checkout_url` of a cart's redirect URLs). Its form posts back to the same URL; a valid post
 *   turns the cart into a v2 order (status 11 Awaiting Fulfillment), deletes the cart and
 *   answers 303 to `{channel site url}/paiement?commande={orderId}`. The e-mail field is
 *   prefilled: the cart's customer's (read-only), the logged-in shopper's, else the checkout's
 *   billing address's (`POST /v3/checkouts/{id}/billing-address`).
 * - `GET /login/token/{jwt}` (customer_login.yml): logs a customer into this storefront (a
 *   session cookie) and redirects to `redirect_to`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DatabaseSync } from 'node:sqlite';
import { escapeHtml, html, parseCookies, redirect, type Reply } from '../http.ts';
import { insertOrder } from '../model.ts';
import { EMAIL } from '../validate.ts';
import {
  lineOptions,
  pricedLines,
  readCart,
  removeCart,
  type CartRecord,
  type PricedLine,
} from './cart-records.ts';
import type { SandboxConfig } from './context.ts';
import { customerAddresses } from './customer-records.ts';

export interface HostedEnv {
  db: DatabaseSync;
  config: SandboxConfig;
  origin: string;
  readBody(): Promise<string | undefined>;
}

/** Session cookie of the hosted storefront (BigCommerce's name for it). */
export const SESSION_COOKIE = 'SHOP_SESSION_TOKEN';
/** Accepted age of a login token's `iat`, and tolerated clock skew into the future. */
export const LOGIN_TOKEN_MAX_AGE_S = 120;
export const LOGIN_TOKEN_MAX_SKEW_S = 60;

const euro = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });

// The hosted checkout's pages name an empty icon: no /favicon.ico request answered 404 (the
// browser suite fails on any console error).
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – Literie Lumière</title>
<link rel="icon" href="data:,">
<style>
body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
table{width:100%;border-collapse:collapse;margin:1rem 0}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}
td.n,th.n{text-align:right}label{display:block;margin-top:.8rem;font-weight:600}
input,select{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
.error{color:#b91c1c;font-weight:400}button{margin-top:1.2rem;padding:.7rem 2rem;font-size:1.1rem;background:#1e3a8a;color:#fff;border:0;border-radius:.3rem}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function messagePage(status: number, title: string, text: string): Reply {
  return html(status, page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`));
}

function sessionCustomer(req: IncomingMessage, config: SandboxConfig): number | undefined {
  const token = parseCookies(req.headers.cookie)[SESSION_COOKIE];
  return token ? config.sessions.get(token) : undefined;
}

function customerEmail(db: DatabaseSync, id: number): string | undefined {
  const row = db.prepare('SELECT email FROM customers WHERE id = ?').get(id) as
    { email: string } | undefined;
  return row?.email;
}

const FIELDS = [
  { name: 'first_name', label: 'Prénom', autocomplete: 'given-name', type: 'text' },
  { name: 'last_name', label: 'Nom', autocomplete: 'family-name', type: 'text' },
  { name: 'address1', label: 'Adresse', autocomplete: 'address-line1', type: 'text' },
  { name: 'postal_code', label: 'Code postal', autocomplete: 'postal-code', type: 'text' },
  { name: 'city', label: 'Ville', autocomplete: 'address-level2', type: 'text' },
  { name: 'phone', label: 'Téléphone', autocomplete: 'tel', type: 'tel' },
] as const;

type FormValues = Record<string, string>;

/** A line's options after its name on the checkout page (" – 140x190 cm, Reprise…: Yes"). */
function optionsText(l: PricedLine): string {
  const options = lineOptions(l.product, l.variant, l.item.modifiers);
  if (options.length === 0) return '';
  const variantIds = new Set(l.variant.option_values.map((v) => v.option_id));
  const texts = options.map((o) => (variantIds.has(o.nameId) ? o.value : `${o.name} : ${o.value}`));
  return ` – ${escapeHtml(texts.join(', '))}`;
}

function checkoutPage(
  db: DatabaseSync,
  cart: CartRecord,
  action: string,
  values: FormValues,
  errors: Record<string, string>,
  emailFixed: boolean,
): string {
  const lines = pricedLines(db, cart);
  const total = lines.reduce((sum, l) => sum + l.sale * l.item.quantity, 0);
  const rows = lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.product.base.name)}${optionsText(l)}</td><td class="n">${l.item.quantity}</td><td class="n">${euro.format(l.sale * l.item.quantity)}</td></tr>`,
    )
    .join('\n');
  const field = (name: string, label: string, input: string): string => {
    const error = errors[name];
    return `<label for="${name}">${escapeHtml(label)}</label>\n${input.replace('<input', `<input${error ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}`)}${error ? `\n<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : ''}`;
  };
  const inputs = FIELDS.map((f) =>
    field(
      f.name,
      f.label,
      `<input id="${f.name}" name="${f.name}" type="${f.type}" autocomplete="${f.autocomplete}" value="${escapeHtml(values[f.name] ?? '')}"${f.name === 'phone' ? '' : ' required'}>`,
    ),
  ).join('\n');
  const summary = Object.keys(errors).length
    ? `<div role="alert"><p>Veuillez corriger les erreurs du formulaire.</p></div>\n`
    : '';
  return page(
    'Paiement',
    `<h1>Paiement</h1>
${summary}<table>
<caption>Votre commande</caption>
<thead><tr><th scope="col">Produit</th><th scope="col" class="n">Quantité</th><th scope="col" class="n">Prix</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><th scope="row" colspan="2">Total TTC</th><td class="n" id="total">${euro.format(total)}</td></tr></tfoot>
</table>
<form method="post" action="${escapeHtml(action)}" novalidate>
<h2>Contact</h2>
${field('email', 'Adresse e-mail', `<input id="email" name="email" type="email" autocomplete="email" value="${escapeHtml(values.email ?? '')}" required${emailFixed ? ' readonly' : ''}>`)}
<h2>Adresse de livraison</h2>
${inputs}
<label for="country">Pays</label>
<select id="country" name="country" autocomplete="country"><option value="FR" selected>France</option></select>
<button type="submit">Payer</button>
</form>`,
  );
}

function validate(values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const required = 'Ce champ est requis.';
  if (!values.email) errors.email = required;
  else if (!EMAIL.test(values.email)) errors.email = 'Veuillez saisir une adresse e-mail valide.';
  for (const name of ['first_name', 'last_name', 'address1', 'postal_code', 'city'] as const) {
    if (!(values[name] ?? '').trim()) errors[name] = required;
  }
  if (!errors.address1 && (values.address1 ?? '').length > 40) {
    errors.address1 = 'Veuillez entrer votre adresse valide (maximum 40 caractères).';
  }
  if (!errors.postal_code && !/^\d{5}$/.test((values.postal_code ?? '').trim())) {
    errors.postal_code = 'Veuillez saisir un code postal à 5 chiffres.';
  }
  const phone = (values.phone ?? '').replace(/[\s.-]/g, '');
  if (phone && !/^(\+33|0)[1-9]\d{8}$/.test(phone))
    errors.phone = 'Veuillez saisir un numéro de téléphone valide.';
  if ((values.country ?? 'FR') !== 'FR') errors.country = 'Nous livrons uniquement en France.';
  return errors;
}

function tokenMatches(cart: CartRecord, token: string): boolean {
  const a = Buffer.from(cart.token);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function siteUrl(db: DatabaseSync): string {
  const row = db.prepare("SELECT doc FROM documents WHERE name = 'site:1'").get() as
    { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as { url: string }).url.replace(/\/$/, '') : '';
}

async function cartPage(req: IncomingMessage, url: URL, env: HostedEnv): Promise<Reply> {
  const action = url.searchParams.get('action');
  if (action !== 'load' && action !== 'loadInCheckout') {
    return messagePage(404, 'Page introuvable', 'Cette page n’existe pas.');
  }
  const cart = readCart(env.db, url.searchParams.get('id') ?? '');
  if (!cart)
    return messagePage(404, 'Panier introuvable', 'Ce panier n’existe plus ou a déjà été payé.');
  if (!tokenMatches(cart, url.searchParams.get('token') ?? '')) {
    return messagePage(403, 'Accès refusé', 'Ce lien de paiement n’est pas valide.');
  }
  const loggedIn = sessionCustomer(req, env.config);
  const fixedEmail = cart.customer_id ? customerEmail(env.db, cart.customer_id) : undefined;
  const known = cart.customer_id || loggedIn;
  const formAction = `${url.pathname}${url.search}`;
  if (req.method === 'GET' || req.method === 'HEAD') {
    const address = known ? customerAddresses(env.db, known)[0] : undefined;
    const values: FormValues = {
      // The customer's own e-mail, else the one the checkout's billing address was given
      // (POST /v3/checkouts/{id}/billing-address: a reseller's client).
      email:
        fixedEmail ??
        (loggedIn ? customerEmail(env.db, loggedIn) : undefined) ??
        cart.billing_address?.email ??
        '',
      first_name: address?.first_name ?? '',
      last_name: address?.last_name ?? '',
      address1: address?.address1 ?? '',
      postal_code: address?.postal_code ?? '',
      city: address?.city ?? '',
      phone: address?.phone ?? '',
    };
    return html(200, checkoutPage(env.db, cart, formAction, values, {}, fixedEmail !== undefined));
  }
  if (req.method !== 'POST')
    return messagePage(405, 'Méthode non autorisée', 'Cette action n’est pas possible.');
  const raw = await env.readBody();
  if (raw === undefined)
    return messagePage(
      413,
      'Requête trop volumineuse',
      'Le formulaire envoyé est trop volumineux.',
    );
  const form = new URLSearchParams(raw);
  const values: FormValues = {};
  for (const name of ['email', 'country', ...FIELDS.map((f) => f.name)])
    values[name] = (form.get(name) ?? '').trim();
  if (fixedEmail !== undefined) values.email = fixedEmail;
  const errors = validate(values);
  const lines = pricedLines(env.db, cart);
  if (lines.length === 0) errors.cart = 'Votre panier est vide.';
  if (Object.keys(errors).length > 0) {
    return html(
      422,
      checkoutPage(env.db, cart, formAction, values, errors, fixedEmail !== undefined),
    );
  }
  const address = {
    first_name: values.first_name ?? '',
    last_name: values.last_name ?? '',
    street_1: values.address1 ?? '',
    city: values.city ?? '',
    zip: values.postal_code ?? '',
    country_iso2: 'FR',
    phone: values.phone ?? '',
    email: values.email ?? '',
  };
  env.db.exec('BEGIN');
  let orderId: number;
  try {
    orderId = insertOrder(env.db, {
      customer_id: cart.customer_id,
      status_id: 11,
      cart_id: cart.id,
      date: new Date(),
      billing: address,
      shipping: address,
      payment_method: 'Test Payment Gateway',
      lines: lines.map((l) => ({
        product: l.product,
        variant: l.variant,
        quantity: l.item.quantity,
        ...(l.item.modifiers ? { modifiers: l.item.modifiers } : {}),
      })),
    });
    removeCart(env.db, cart.id);
    env.db.exec('COMMIT');
  } catch (error) {
    env.db.exec('ROLLBACK');
    throw error;
  }
  return redirect(303, `${siteUrl(env.db)}/paiement?commande=${orderId}`);
}

function base64url(value: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return undefined;
  return Buffer.from(value, 'base64url');
}

/** Verifies a customer login JWT; the customer id and path to go to, or why it is refused. */
export function verifyLoginToken(
  db: DatabaseSync,
  config: SandboxConfig,
  jwt: string,
  nowSeconds = Date.now() / 1000,
): { customerId: number; redirectTo: string } | { error: string } {
  const parts = jwt.split('.');
  if (parts.length !== 3) return { error: 'malformed token' };
  const [head = '', body = '', signature = ''] = parts;
  const expected = createHmac('sha256', config.clientSecret).update(`${head}.${body}`).digest();
  const given = base64url(signature);
  if (given?.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { error: 'bad signature' };
  }
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(base64url(head)?.toString('utf8') ?? '') as Record<string, unknown>;
    claims = JSON.parse(base64url(body)?.toString('utf8') ?? '') as Record<string, unknown>;
  } catch {
    return { error: 'malformed token' };
  }
  if (header.alg !== 'HS256') return { error: 'unsupported algorithm' };
  if (claims.iss !== config.clientId) return { error: 'wrong issuer' };
  if (claims.operation !== 'customer_login') return { error: 'wrong operation' };
  if (claims.store_hash !== config.storeHash) return { error: 'wrong store' };
  const iat = claims.iat;
  if (
    typeof iat !== 'number' ||
    nowSeconds - iat > LOGIN_TOKEN_MAX_AGE_S ||
    iat - nowSeconds > LOGIN_TOKEN_MAX_SKEW_S
  ) {
    return { error: 'expired' };
  }
  const customerId = claims.customer_id;
  if (
    typeof customerId !== 'number' ||
    !db.prepare('SELECT 1 FROM customers WHERE id = ?').get(customerId)
  ) {
    return { error: 'unknown customer' };
  }
  const redirectTo = claims.redirect_to ?? '/account.php';
  if (
    typeof redirectTo !== 'string' ||
    !redirectTo.startsWith('/') ||
    redirectTo.startsWith('//') ||
    redirectTo.includes('\\')
  ) {
    return { error: 'redirect_to must be a relative path' };
  }
  const jti = claims.jti;
  if (typeof jti !== 'string' || jti === '') return { error: 'missing jti' };
  const used = db
    .prepare('INSERT OR IGNORE INTO login_tokens VALUES (?, ?)')
    .run(jti, new Date().toISOString());
  if (used.changes === 0) return { error: 'token already used' };
  return { customerId, redirectTo };
}

function loginPage(env: HostedEnv, jwt: string): Reply {
  const result = verifyLoginToken(env.db, env.config, jwt);
  if ('error' in result) {
    return messagePage(
      401,
      'Connexion impossible',
      'Ce lien de connexion n’est pas valide ou a expiré. Veuillez vous reconnecter depuis la boutique.',
    );
  }
  const session = randomBytes(24).toString('base64url');
  env.config.sessions.set(session, result.customerId);
  return redirect(302, result.redirectTo, {
    'Set-Cookie': `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Lax`,
  });
}

/** The hosted pages; undefined for any other path. */
export async function handleHosted(
  req: IncomingMessage,
  url: URL,
  env: HostedEnv,
): Promise<Reply | undefined> {
  if (url.pathname === '/cart.php') return cartPage(req, url, env);
  const login = /^\/login\/token\/([^/]+)$/.exec(url.pathname);
  if (login) {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return messagePage(405, 'Méthode non autorisée', 'Cette action n’est pas possible.');
    return loginPage(env, decodeURIComponent(login[1] ?? ''));
  }
  return undefined;
}
