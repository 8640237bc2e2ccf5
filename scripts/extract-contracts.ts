/**
 * `npm run contracts [folder]`: extracts from BigCommerce's OpenAPI files the response schemas
 * of every endpoint the sandbox implements, structure only (types, properties, required, items,
 * enums, compositions, nullability, formats), into tests/contracts/bigcommerce.json.
 *
 * The argument is the folder of BigCommerce's public OpenAPI files; without one, the copies
 * committed in `tests/contracts/openapi/bigcommerce/` are read (their source, commit and
 * licence: `tests/contracts/openapi/README.md`), so the command works on a fresh clone. The
 * output is committed too: tests never read the yml files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const SOURCE_COMMIT = '1072ce7';
const SOURCE_REPOSITORY = 'https://github.com/bigcommerce/api-specs';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = Record<string, Json>;

interface Endpoint {
  /** `GET /v3/catalog/products`, as the sandbox serves it. */
  id: string;
  file: string;
  /** Path in the yml (relative to its base path). */
  path: string;
  /** Where the error schema comes from: a definition of the same file ('' for v2, 'v3' for the common v3 error). */
  error: string;
  /** HTTP method in the yml; default get. */
  method?: 'get' | 'post' | 'put' | 'delete';
  /** Status of the success reply in the yml; default '200'. */
  status?: string;
}

const CATALOG_ERROR = '#/definitions/errorResponse_Full';
const CUSTOMERS_ERROR = '#/components/schemas/ErrorResponse';
const CHANNELS_ERROR = '#/components/responses/error_Resp';

/** Write endpoints and their reads: carts, checkouts, customers, orders, reviews, channel site. */
const WRITE_ENDPOINTS: Endpoint[] = [
  {
    id: 'POST /v3/carts',
    file: 'carts.v3.yml',
    path: '/carts',
    method: 'post',
    status: '201',
    error: 'v3',
  },
  { id: 'GET /v3/carts/{cartId}', file: 'carts.v3.yml', path: '/carts/{cartId}', error: 'v3' },
  {
    id: 'PUT /v3/carts/{cartId}',
    file: 'carts.v3.yml',
    path: '/carts/{cartId}',
    method: 'put',
    status: '201',
    error: 'v3',
  },
  {
    id: 'POST /v3/carts/{cartId}/items',
    file: 'carts.v3.yml',
    path: '/carts/{cartId}/items',
    method: 'post',
    status: '201',
    error: 'v3',
  },
  {
    id: 'PUT /v3/carts/{cartId}/items/{itemId}',
    file: 'carts.v3.yml',
    path: '/carts/{cartId}/items/{itemId}',
    method: 'put',
    error: 'v3',
  },
  {
    id: 'DELETE /v3/carts/{cartId}/items/{itemId}',
    file: 'carts.v3.yml',
    path: '/carts/{cartId}/items/{itemId}',
    method: 'delete',
    error: 'v3',
  },
  {
    id: 'POST /v3/carts/{cartId}/redirect_urls',
    file: 'carts.v3.yml',
    path: '/carts/{cartId}/redirect_urls',
    method: 'post',
    status: '201',
    error: 'v3',
  },
  {
    id: 'GET /v3/checkouts/{checkoutId}',
    file: 'checkouts.v3.yml',
    path: '/checkouts/{checkoutId}',
    error: 'v3',
  },
  { id: 'GET /v3/customers', file: 'customers.v3.yml', path: '/customers', error: CUSTOMERS_ERROR },
  {
    id: 'POST /v3/customers',
    file: 'customers.v3.yml',
    path: '/customers',
    method: 'post',
    error: CUSTOMERS_ERROR,
  },
  {
    id: 'PUT /v3/customers',
    file: 'customers.v3.yml',
    path: '/customers',
    method: 'put',
    error: CUSTOMERS_ERROR,
  },
  {
    id: 'POST /v3/customers/validate-credentials',
    file: 'customers.v3.yml',
    path: '/customers/validate-credentials',
    method: 'post',
    error: CUSTOMERS_ERROR,
  },
  {
    id: 'GET /v3/customers/form-field-values',
    file: 'customers.v3.yml',
    path: '/customers/form-field-values',
    error: CUSTOMERS_ERROR,
  },
  {
    id: 'PUT /v3/customers/form-field-values',
    file: 'customers.v3.yml',
    path: '/customers/form-field-values',
    method: 'put',
    error: CUSTOMERS_ERROR,
  },
  {
    id: 'GET /v3/customers/addresses',
    file: 'customers.v3.yml',
    path: '/customers/addresses',
    error: CUSTOMERS_ERROR,
  },
  {
    id: 'POST /v3/customers/addresses',
    file: 'customers.v3.yml',
    path: '/customers/addresses',
    method: 'post',
    error: CUSTOMERS_ERROR,
  },
  {
    id: 'PUT /v3/customers/addresses',
    file: 'customers.v3.yml',
    path: '/customers/addresses',
    method: 'put',
    error: CUSTOMERS_ERROR,
  },
  { id: 'GET /v2/orders', file: 'orders.v2.oas2.yml', path: '/orders', error: '' },
  {
    id: 'GET /v2/orders/{order_id}',
    file: 'orders.v2.oas2.yml',
    path: '/orders/{order_id}',
    error: '',
  },
  {
    id: 'GET /v2/orders/{order_id}/products',
    file: 'orders.v2.oas2.yml',
    path: '/orders/{order_id}/products',
    error: '',
  },
  {
    id: 'GET /v2/orders/{order_id}/shipping_addresses',
    file: 'orders.v2.oas2.yml',
    path: '/orders/{order_id}/shipping_addresses',
    error: '',
  },
  {
    id: 'GET /v2/orders/{order_id}/shipments',
    file: 'orders.v2.oas2.yml',
    path: '/orders/{order_id}/shipments',
    error: '',
  },
  {
    id: 'POST /v3/catalog/products/{product_id}/reviews',
    file: 'catalog.v3.yml',
    path: '/catalog/products/{product_id}/reviews',
    method: 'post',
    error: CATALOG_ERROR,
  },
  { id: 'GET /v3/wishlists', file: 'wishlists.v3.yml', path: '/wishlists', error: 'v3' },
  {
    id: 'POST /v3/wishlists',
    file: 'wishlists.v3.yml',
    path: '/wishlists',
    method: 'post',
    status: '201',
    error: 'v3',
  },
  {
    id: 'GET /v3/wishlists/{wishlist_id}',
    file: 'wishlists.v3.yml',
    path: '/wishlists/{wishlist_id}',
    error: 'v3',
  },
  {
    id: 'POST /v3/wishlists/{wishlist_id}/items',
    file: 'wishlists.v3.yml',
    path: '/wishlists/{wishlist_id}/items',
    method: 'post',
    status: '201',
    error: 'v3',
  },
  {
    id: 'DELETE /v3/wishlists/{wishlist_id}/items/{item_id}',
    file: 'wishlists.v3.yml',
    path: '/wishlists/{wishlist_id}/items/{item_id}',
    method: 'delete',
    error: 'v3',
  },
  {
    id: 'GET /v3/channels/{channel_id}/site',
    file: 'channels.v3.yml',
    path: '/channels/{channel_id}/site',
    error: CHANNELS_ERROR,
  },
  {
    id: 'PUT /v3/channels/{channel_id}/site',
    file: 'channels.v3.yml',
    path: '/channels/{channel_id}/site',
    method: 'put',
    error: CHANNELS_ERROR,
  },
];

/** The common v3 error `{ status, title, type, errors? }` (files without an error definition). */
const V3_ERROR: JsonObject = {
  type: 'object',
  required: ['status', 'title', 'type'],
  properties: {
    status: { type: 'integer' },
    title: { type: 'string' },
    type: { type: 'string' },
    instance: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

const ENDPOINTS: Endpoint[] = [
  {
    id: 'GET /v3/catalog/products',
    file: 'catalog.v3.yml',
    path: '/catalog/products',
    error: CATALOG_ERROR,
  },
  {
    id: 'GET /v3/catalog/products/{product_id}',
    file: 'catalog.v3.yml',
    path: '/catalog/products/{product_id}',
    error: CATALOG_ERROR,
  },
  {
    id: 'GET /v3/catalog/products/{product_id}/reviews',
    file: 'catalog.v3.yml',
    path: '/catalog/products/{product_id}/reviews',
    error: CATALOG_ERROR,
  },
  {
    id: 'GET /v3/catalog/categories',
    file: 'catalog.v3.yml',
    path: '/catalog/categories',
    error: CATALOG_ERROR,
  },
  {
    id: 'GET /v3/catalog/categories/tree',
    file: 'catalog.v3.yml',
    path: '/catalog/categories/tree',
    error: CATALOG_ERROR,
  },
  {
    id: 'GET /v3/catalog/categories/{category_id}',
    file: 'catalog.v3.yml',
    path: '/catalog/categories/{category_id}',
    error: CATALOG_ERROR,
  },
  {
    id: 'GET /v3/catalog/categories/{category_id}/metafields',
    file: 'catalog.v3.yml',
    path: '/catalog/categories/{category_id}/metafields',
    error: CATALOG_ERROR,
  },
  {
    id: 'GET /v3/catalog/brands',
    file: 'catalog.v3.yml',
    path: '/catalog/brands',
    error: CATALOG_ERROR,
  },
  {
    id: 'GET /v3/catalog/brands/{brand_id}',
    file: 'catalog.v3.yml',
    path: '/catalog/brands/{brand_id}',
    error: CATALOG_ERROR,
  },
  {
    id: 'GET /v3/channels/{channel_id}',
    file: 'channels.v3.yml',
    path: '/channels/{channel_id}',
    error: '#/components/responses/error_Resp',
  },
  {
    id: 'GET /v3/storefront/redirects',
    file: 'redirects.v3.yml',
    path: '/storefront/redirects',
    error: '#/definitions/ErrorResponse',
  },
  { id: 'GET /v2/store', file: 'store_information.v2.yml', path: '/store', error: '' },
  ...WRITE_ENDPOINTS,
];

/** A v2 error: a bare array of `{ status, message }` (the v2 files define no error schema). */
const V2_ERROR: JsonObject = {
  type: 'array',
  items: {
    type: 'object',
    required: ['status', 'message'],
    properties: { status: { type: 'integer' }, message: { type: 'string' } },
  },
};

const KEPT = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'allOf',
  'oneOf',
  'anyOf',
  'nullable',
  'additionalProperties',
  'format',
]);

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(doc: JsonObject, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
  let node: Json = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !(key in node)) throw new Error(`unresolved $ref ${ref}`);
    node = node[key] ?? null;
  }
  return node;
}

/** Converts the schemas of one yml file, collecting named definitions into `definitions`. */
class Converter {
  readonly doc: JsonObject;
  readonly prefix: string;
  readonly definitions: Record<string, Json>;

  constructor(doc: JsonObject, file: string, definitions: Record<string, Json>) {
    this.doc = doc;
    this.prefix = basename(file, '.yml');
    this.definitions = definitions;
  }

  /** The schema of a response object (swagger 2 `schema`, OpenAPI 3 `content[json].schema`). */
  responseSchema(response: Json): Json {
    let node = response;
    while (
      isObject(node) &&
      typeof node.$ref === 'string' &&
      /^#\/(responses|components\/responses)\//.test(node.$ref)
    ) {
      node = pointer(this.doc, node.$ref);
    }
    if (!isObject(node)) throw new Error('response is not an object');
    if ('schema' in node) return this.schema(node.schema ?? null);
    const content = node.content;
    if (isObject(content)) {
      const media = content['application/json'] ?? Object.values(content)[0];
      if (isObject(media)) return this.schema(media.schema ?? null);
    }
    if ('$ref' in node) return this.schema(node);
    throw new Error('response without schema');
  }

  schema(node: Json): Json {
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string') {
      const named = /^#\/(?:definitions|components\/schemas)\/([^/]+)$/.exec(ref);
      if (named?.[1]) {
        const name = `${this.prefix}.${named[1]}`;
        if (!(name in this.definitions)) {
          this.definitions[name] = {};
          this.definitions[name] = this.schema(pointer(this.doc, ref));
        }
        return { $ref: `#/definitions/${name}` };
      }
      if (/^#\/(responses|components\/responses)\//.test(ref)) return this.responseSchema(node);
      return this.schema(pointer(this.doc, ref));
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-nullable' && value === true) out.nullable = true;
      if (!KEPT.has(key)) continue;
      if (key === 'properties' && isObject(value)) {
        out.properties = Object.fromEntries(
          Object.entries(value).map(([k, v]) => [k, this.schema(v)]),
        );
      } else if ((key === 'allOf' || key === 'oneOf' || key === 'anyOf') && Array.isArray(value)) {
        out[key] = value.map((v) => this.schema(v));
      } else if (key === 'items' || key === 'additionalProperties') {
        out[key] = typeof value === 'boolean' ? value : this.schema(value);
      } else if (key === 'required') {
        // Swagger files sometimes put `required: true` on a property: not JSON Schema, dropped.
        if (Array.isArray(value)) out.required = value;
      } else {
        out[key] = value;
      }
    }
    // `nullable` only means something beside a type; with an enum, null must be listed too.
    if (out.nullable === true && out.type === undefined) delete out.nullable;
    if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null))
      out.enum = [...out.enum, null];
    return out;
  }
}

interface Erratum {
  where: string;
  change: string;
  why: string;
  apply(definitions: Record<string, Json>, endpoints: Record<string, JsonObject>): void;
}

function at(root: Json, path: (string | number)[]): JsonObject {
  let node: Json = root;
  for (const key of path) {
    node =
      Array.isArray(node) && typeof key === 'number'
        ? (node[key] ?? null)
        : isObject(node)
          ? (node[String(key)] ?? null)
          : null;
  }
  if (!isObject(node)) throw new Error(`erratum target missing: ${path.join('/')}`);
  return node;
}

/**
 * Places where the yml contradicts its own examples and descriptions and what the real API
 * returns. Each is applied to the extracted schema and recorded in the output's header.
 */
const ERRATA: Erratum[] = [
  {
    where: 'catalog.v3.product_Full variants',
    change: 'a single productVariant_Full -> an array of productVariant_Full',
    why: "the file's own product examples and the live API return `variants` as an array",
    apply(definitions) {
      const props = at(definitions['catalog.v3.product_Full'] ?? null, ['allOf', 2, 'properties']);
      props.variants = { type: 'array', items: props.variants ?? {} };
    },
  },
  {
    where: 'catalog.v3.productOption_Base option_values',
    change: 'a single productOptionOptionValue_Full -> an array of them',
    why: 'an option has several values; the examples and the live API return an array',
    apply(definitions) {
      const props = at(definitions['catalog.v3.productOption_Base'] ?? null, ['properties']);
      props.option_values = { type: 'array', items: props.option_values ?? {} };
    },
  },
  {
    where: 'catalog.v3.product_Full base_variant_id, option_set_id',
    change: 'integer -> nullable integer',
    why: 'the description of base_variant_id says it is null for products with options; the live API also sends option_set_id null',
    apply(definitions) {
      const props = at(definitions['catalog.v3.product_Full'] ?? null, ['allOf', 1, 'properties']);
      at(props, ['base_variant_id']).nullable = true;
      at(props, ['option_set_id']).nullable = true;
    },
  },
  {
    where: 'store_information.v2.StoreInformation features.sitewidehttps_enabled',
    change: 'string -> boolean',
    why: "the file's own description of `features` and its first example give a boolean, as the live API does",
    apply(definitions) {
      const features = at(definitions['store_information.v2.StoreInformation'] ?? null, [
        'properties',
        'features',
      ]);
      at(features, ['properties', 'sitewidehttps_enabled']).type = 'boolean';
    },
  },
  {
    where: 'redirects.v3 GET /storefront/redirects data',
    change: 'a single 301RedirectRead -> an array of 301RedirectRead',
    why: 'a paginated collection: the example and the live API return an array',
    apply(_definitions, endpoints) {
      const props = at(endpoints['GET /v3/storefront/redirects'] ?? null, [
        'response',
        'properties',
      ]);
      props.data = { type: 'array', items: props.data ?? {} };
    },
  },
];

/** `{ data: <schema>, meta }` */
function wrapped(schema: Json): JsonObject {
  return {
    type: 'object',
    required: ['data'],
    properties: { data: schema, meta: { type: 'object' } },
  };
}

const CART_REPLIES = [
  'POST /v3/carts',
  'GET /v3/carts/{cartId}',
  'PUT /v3/carts/{cartId}',
  'POST /v3/carts/{cartId}/items',
  'PUT /v3/carts/{cartId}/items/{itemId}',
  'DELETE /v3/carts/{cartId}/items/{itemId}',
  'POST /v3/carts/{cartId}/redirect_urls',
];

/** Errata of the write endpoints. */
const WRITE_ERRATA: Erratum[] = [
  {
    where:
      'carts.v3 CartResponse, CartRedirectResponse and the 200 of DELETE /carts/{cartId}/items/{itemId}',
    change: 'the bare Cart_Full (or redirect URLs) -> { data: <it>, meta }',
    why: "the file's own examples and the live API wrap every cart reply in `data`",
    apply(_definitions, endpoints) {
      for (const id of CART_REPLIES) {
        const endpoint = endpoints[id];
        if (!endpoint) throw new Error(`erratum target missing: ${id}`);
        endpoint.response = wrapped(endpoint.response ?? {});
      }
    },
  },
  {
    where: 'carts.v3 CartRedirectResponse',
    change: 'adds embedded_checkout_url (string)',
    why: 'the live API returns it beside cart_url and checkout_url',
    apply(_definitions, endpoints) {
      const props = at(endpoints['POST /v3/carts/{cartId}/redirect_urls'] ?? null, [
        'response',
        'properties',
        'data',
        'properties',
      ]);
      props.embedded_checkout_url = { type: 'string' };
    },
  },
  {
    where: 'checkouts.v3.Checkout order_id',
    change: 'string -> nullable string',
    why: 'a checkout without an order has order_id null in the live API',
    apply(definitions) {
      at(definitions['checkouts.v3.Checkout'] ?? null, ['properties', 'order_id']).nullable = true;
    },
  },
  {
    where: 'checkouts.v3.Checkout cart.line_items.physical_items[].coupons',
    change: 'number -> array',
    why: "a line item's coupons are a list, as in the cart (carts.v3.yml) and the live API",
    apply(definitions) {
      const item = at(definitions['checkouts.v3.Checkout'] ?? null, [
        'properties',
        'cart',
        'properties',
        'line_items',
        'properties',
        'physical_items',
        'items',
        'properties',
      ]);
      item.coupons = { type: 'array', items: { type: 'object' } };
    },
  },
  {
    where: 'orders.v2.oas2.billingAddress_Base zip, phone',
    change: 'number -> string',
    why: "the file's own examples (zip '78751', phone '') and the live API send strings",
    apply(definitions) {
      const props = at(definitions['orders.v2.oas2.billingAddress_Base'] ?? null, ['properties']);
      at(props, ['zip']).type = 'string';
      at(props, ['phone']).type = 'string';
    },
  },
  {
    where: 'orders.v2.oas2.orderShipment shipping_provider',
    change: "enum gains '' (empty string)",
    why: 'shipments of a custom carrier (tracking_carrier set) have an empty shipping_provider in the live API',
    apply(definitions) {
      const provider = at(definitions['orders.v2.oas2.orderShipment'] ?? null, [
        'properties',
        'shipping_provider',
      ]);
      provider.enum = [...((provider.enum as Json[] | undefined) ?? []), ''];
    },
  },
];

/** Shapes the snapshot does not contain; written from BigCommerce's API documentation (same shapes as their siblings). */
function supplements(endpoints: Record<string, JsonObject>): void {
  const metafields = endpoints['GET /v3/catalog/categories/{category_id}/metafields'];
  if (metafields) {
    endpoints['GET /v3/catalog/categories/metafields'] = {
      source:
        'not in the snapshot; same reply as GET /catalog/categories/{category_id}/metafields (the BigCommerce API documentation)',
      response: metafields.response ?? {},
      error: metafields.error ?? {},
    };
  }
  const banner: JsonObject = {
    type: 'object',
    required: ['id', 'name', 'content', 'page', 'location', 'date_type', 'visible'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      content: { type: 'string' },
      page: { type: 'string', enum: ['home_page', 'category_page', 'brand_page', 'search_page'] },
      catorbrandid: { type: 'integer' },
      location: { type: 'string', enum: ['top', 'bottom'] },
      date_created: { type: 'string' },
      date_type: { type: 'string', enum: ['always', 'custom'] },
      date_from: { type: 'string' },
      date_to: { type: 'string' },
      visible: { type: 'string', enum: ['0', '1'] },
    },
  };
  // The catalogue's metafield_Full with resource_type 'cart' and a string (the cart id) as resource_id.
  const metafield: JsonObject = {
    type: 'object',
    required: ['id', 'key', 'value', 'namespace', 'permission_set', 'resource_type', 'resource_id'],
    properties: {
      id: { type: 'integer' },
      key: { type: 'string' },
      value: { type: 'string' },
      namespace: { type: 'string' },
      permission_set: {
        type: 'string',
        enum: ['app_only', 'read', 'write', 'read_and_sf_access', 'write_and_sf_access'],
      },
      resource_type: { type: 'string', enum: ['cart'] },
      resource_id: { type: 'string' },
      description: { type: 'string' },
      date_created: { type: 'string', format: 'date-time' },
      date_modified: { type: 'string', format: 'date-time' },
      owner_client_id: { type: 'string' },
    },
  };
  const cartMetafieldsSource =
    'not in the snapshot; same shape as the catalogue metafields (the BigCommerce API documentation), resource_type cart and the cart id (a string) as resource_id';
  endpoints['GET /v3/carts/{cartId}/metafields'] = {
    source: cartMetafieldsSource,
    response: {
      type: 'object',
      required: ['data', 'meta'],
      properties: {
        data: { type: 'array', items: metafield },
        meta: { $ref: '#/definitions/catalog.v3.metaCollection_Full' },
      },
    },
    error: V3_ERROR,
  };
  for (const id of [
    'POST /v3/carts/{cartId}/metafields',
    'GET /v3/carts/{cartId}/metafields/{metafieldId}',
    'PUT /v3/carts/{cartId}/metafields/{metafieldId}',
  ]) {
    endpoints[id] = { source: cartMetafieldsSource, response: wrapped(metafield), error: V3_ERROR };
  }
  endpoints['GET /v2/banners'] = {
    source:
      'not in the snapshot; shape from the BigCommerce API documentation (`visible` is the string 1 or 0)',
    response: { type: 'array', items: banner },
    error: V2_ERROR,
  };
}

export function extractContracts(folder: string): JsonObject {
  const definitions: Record<string, Json> = {};
  const endpoints: Record<string, JsonObject> = {};
  const converters = new Map<string, Converter>();
  const files = new Set<string>();
  for (const endpoint of ENDPOINTS) {
    let converter = converters.get(endpoint.file);
    if (!converter) {
      const doc = parse(readFileSync(join(folder, endpoint.file), 'utf8')) as JsonObject;
      converter = new Converter(doc, endpoint.file, definitions);
      converters.set(endpoint.file, converter);
    }
    files.add(endpoint.file);
    const paths = converter.doc.paths;
    const item = isObject(paths) ? paths[endpoint.path] : undefined;
    const method = endpoint.method ?? 'get';
    const status = endpoint.status ?? '200';
    const operation = isObject(item) ? item[method] : undefined;
    if (!isObject(operation) || !isObject(operation.responses)) {
      throw new Error(`${endpoint.file}: no ${method} ${endpoint.path}`);
    }
    const ok = operation.responses[status];
    if (ok === undefined)
      throw new Error(`${endpoint.file}: ${method} ${endpoint.path} has no ${status} reply`);
    const error =
      endpoint.error === 'v3'
        ? V3_ERROR
        : endpoint.error
          ? endpoint.error.includes('responses/')
            ? converter.responseSchema({ $ref: endpoint.error })
            : converter.schema({ $ref: endpoint.error })
          : V2_ERROR;
    endpoints[endpoint.id] = {
      source: `${endpoint.file}#/paths/${endpoint.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`,
      response: converter.responseSchema(ok),
      error,
    };
  }
  supplements(endpoints);
  for (const erratum of [...ERRATA, ...WRITE_ERRATA]) erratum.apply(definitions, endpoints);
  return {
    $comment:
      'Generated by scripts/extract-contracts.ts from BigCommerce OpenAPI files; do not edit. Structure only (no descriptions or examples).',
    source: {
      repository: SOURCE_REPOSITORY,
      commit: SOURCE_COMMIT,
      files: [...files].sort(),
      errata: [...ERRATA, ...WRITE_ERRATA].map(({ where, change, why }) => ({
        where,
        change,
        why,
      })),
    },
    endpoints,
    definitions: Object.fromEntries(
      Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)),
    ),
  };
}

if (import.meta.main) {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const folder = resolve(process.argv[2] ?? join(root, 'tests/contracts/openapi/bigcommerce'));
  const out = join(root, 'tests/contracts/bigcommerce.json');
  const contracts = extractContracts(folder);
  writeFileSync(out, `${JSON.stringify(contracts, null, 2)}\n`);
  const count = Object.keys(contracts.endpoints as JsonObject).length;
  console.log(
    `[contracts] ${count} endpoints from ${relative(root, folder)} -> ${relative(root, out)}`,
  );
}
