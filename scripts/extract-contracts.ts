/**
 * `npm run contracts [folder]`: extracts from BigCommerce's OpenAPI files the response schemas
 * of every endpoint the sandbox implements, structure only (types, properties, required, items,
 * enums, compositions, nullability, formats), into tests/contracts/bigcommerce.json.
 *
 * The folder defaults to ../shared/upstream/bigcommerce (BigCommerce's public api-specs
 * repository, commit 1072ce7). The output is committed: tests never read the yml files.
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
  /** Where the error schema comes from: a definition of the same file. */
  error: string;
}

const CATALOG_ERROR = '#/definitions/errorResponse_Full';
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

/** Shapes the snapshot does not contain; written from the upstream README (same shapes as their siblings). */
function supplements(endpoints: Record<string, JsonObject>): void {
  const metafields = endpoints['GET /v3/catalog/categories/{category_id}/metafields'];
  if (metafields) {
    endpoints['GET /v3/catalog/categories/metafields'] = {
      source:
        'not in the snapshot; same reply as GET /catalog/categories/{category_id}/metafields (upstream README)',
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
  endpoints['GET /v2/banners'] = {
    source: 'not in the snapshot; shape from the upstream README (`visible` is the string 1 or 0)',
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
    const operation = isObject(item) ? item.get : undefined;
    if (!isObject(operation) || !isObject(operation.responses)) {
      throw new Error(`${endpoint.file}: no GET ${endpoint.path}`);
    }
    const ok = operation.responses['200'];
    if (ok === undefined)
      throw new Error(`${endpoint.file}: GET ${endpoint.path} has no 200 reply`);
    const error = endpoint.error
      ? endpoint.error.includes('responses/')
        ? converter.responseSchema({ $ref: endpoint.error })
        : converter.schema({ $ref: endpoint.error })
      : V2_ERROR;
    endpoints[endpoint.id] = {
      source: `${endpoint.file}#/paths/${endpoint.path.replace(/~/g, '~0').replace(/\//g, '~1')}/get`,
      response: converter.responseSchema(ok),
      error,
    };
  }
  supplements(endpoints);
  for (const erratum of ERRATA) erratum.apply(definitions, endpoints);
  return {
    $comment:
      'Generated by scripts/extract-contracts.ts from BigCommerce OpenAPI files; do not edit. Structure only (no descriptions or examples).',
    source: {
      repository: SOURCE_REPOSITORY,
      commit: SOURCE_COMMIT,
      files: [...files].sort(),
      errata: ERRATA.map(({ where, change, why }) => ({ where, change, why })),
    },
    endpoints,
    definitions: Object.fromEntries(
      Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)),
    ),
  };
}

if (import.meta.main) {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const folder = resolve(process.argv[2] ?? join(root, '../shared/upstream/bigcommerce'));
  const out = join(root, 'tests/contracts/bigcommerce.json');
  const contracts = extractContracts(folder);
  writeFileSync(out, `${JSON.stringify(contracts, null, 2)}\n`);
  const count = Object.keys(contracts.endpoints as JsonObject).length;
  console.log(
    `[contracts] ${count} endpoints from ${relative(root, folder)} -> ${relative(root, out)}`,
  );
}
