/**
 * The Content Management API's checks of an entry's fields and tags against its content type
 * (the emulation's field validation: types, links, rich text, required fields, sizes).
 */
import type { DatabaseSync } from 'node:sqlite';
import { snapshot } from '../contentful-store.ts';
import {
  CONTENTFUL_LOCALE,
  type ContentTypeDefinition,
  type FieldDefinition,
  type StoredEntry,
} from '../seed/contentful-model.ts';
import { ID, isObject, type ValidationError } from './management-context.ts';

// ---------------------------------------------------------------------------------------------
// Field validation

function isLink(value: unknown, linkType: string): boolean {
  if (!isObject(value) || !isObject(value.sys)) return false;
  const sys = value.sys;
  return (
    sys.type === 'Link' &&
    sys.linkType === linkType &&
    typeof sys.id === 'string' &&
    ID.test(sys.id)
  );
}

const MAX_DEPTH = 40;

function isRichNode(value: unknown, depth: number): boolean {
  if (!isObject(value) || typeof value.nodeType !== 'string' || depth > MAX_DEPTH) return false;
  if (value.data !== undefined && !isObject(value.data)) return false;
  if (value.nodeType === 'text') {
    return (
      typeof value.value === 'string' &&
      (value.marks === undefined ||
        (Array.isArray(value.marks) &&
          value.marks.every((m) => isObject(m) && typeof m.type === 'string')))
    );
  }
  return (
    value.content === undefined ||
    (Array.isArray(value.content) && value.content.every((c) => isRichNode(c, depth + 1)))
  );
}

function checkValue(
  field: FieldDefinition,
  value: unknown,
  path: (string | number)[],
  errors: ValidationError[],
): void {
  const fail = (details: string): void => {
    errors.push({ name: 'type', path, details, value });
  };
  switch (field.type) {
    case 'Symbol':
      if (typeof value !== 'string') fail('Symbol expected');
      else if (value.length > 256)
        errors.push({ name: 'size', path, details: 'At most 256 characters' });
      return;
    case 'Text':
      if (typeof value !== 'string') fail('Text expected');
      else if (value.length > 50_000)
        errors.push({ name: 'size', path, details: 'At most 50000 characters' });
      return;
    case 'Integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail('Integer expected');
      return;
    case 'Number':
      if (typeof value !== 'number' || !Number.isFinite(value)) fail('Number expected');
      return;
    case 'Boolean':
      if (typeof value !== 'boolean') fail('Boolean expected');
      return;
    case 'Date':
      if (
        typeof value !== 'string' ||
        !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(
          value,
        ) ||
        Number.isNaN(Date.parse(value))
      ) {
        fail('Date expected (ISO 8601)');
      }
      return;
    case 'RichText':
      if (
        !isObject(value) ||
        value.nodeType !== 'document' ||
        !Array.isArray(value.content) ||
        !isRichNode(value, 0)
      ) {
        fail('Rich text document expected');
      }
      return;
    case 'Link':
      if (!isLink(value, field.linkType ?? 'Entry'))
        fail(`Link to ${field.linkType ?? 'Entry'} expected`);
      return;
    case 'Array': {
      if (!Array.isArray(value)) {
        fail('Array expected');
        return;
      }
      if (value.length > 1000) errors.push({ name: 'size', path, details: 'At most 1000 items' });
      const items = field.items;
      value.forEach((item: unknown, index) => {
        if (
          items?.type === 'Symbol'
            ? typeof item !== 'string'
            : !isLink(item, items?.linkType ?? 'Entry')
        ) {
          errors.push({
            name: 'type',
            path: [...path, index],
            details: `${items?.type ?? 'Link'} expected`,
            value: item,
          });
        }
      });
      return;
    }
  }
}

/** Localized fields of a write body, validated against the content type. */
export function readFields(
  type: ContentTypeDefinition,
  raw: unknown,
  errors: ValidationError[],
): StoredEntry['fields'] {
  const fields: StoredEntry['fields'] = {};
  if (raw === undefined) return fields;
  if (!isObject(raw)) {
    errors.push({ name: 'type', path: ['fields'], details: 'Object expected' });
    return fields;
  }
  for (const [name, perLocale] of Object.entries(raw)) {
    const field = type.fields.find((f) => f.id === name);
    if (!field) {
      errors.push({
        name: 'unknown',
        path: ['fields', name],
        details: `The field "${name}" is not in the content type ${type.id}`,
      });
      continue;
    }
    if (!isObject(perLocale)) {
      errors.push({
        name: 'type',
        path: ['fields', name],
        details: 'An object of values per locale expected',
      });
      continue;
    }
    for (const [code, value] of Object.entries(perLocale)) {
      if (code !== CONTENTFUL_LOCALE) {
        errors.push({
          name: 'unknown',
          path: ['fields', name, code],
          details: `Unknown locale ${code}`,
        });
        continue;
      }
      if (value === null) continue;
      checkValue(field, value, ['fields', name, code], errors);
      fields[name] = { [CONTENTFUL_LOCALE]: value };
    }
  }
  return fields;
}

export function readTags(
  db: DatabaseSync,
  metadata: unknown,
  errors: ValidationError[],
): string[] | undefined {
  if (metadata === undefined) return undefined;
  if (!isObject(metadata) || (metadata.tags !== undefined && !Array.isArray(metadata.tags))) {
    errors.push({ name: 'type', path: ['metadata'], details: '{ tags: [Link<Tag>] } expected' });
    return undefined;
  }
  const known = new Set(snapshot(db).tags.map((t) => t.id));
  const ids: string[] = [];
  ((metadata.tags as unknown[] | undefined) ?? []).forEach((tag, index) => {
    if (!isLink(tag, 'Tag')) {
      errors.push({
        name: 'type',
        path: ['metadata', 'tags', index],
        details: 'Link to a Tag expected',
      });
      return;
    }
    const id = (tag as { sys: { id: string } }).sys.id;
    if (!known.has(id))
      errors.push({
        name: 'notResolvable',
        path: ['metadata', 'tags', index],
        details: `Unknown tag ${id}`,
      });
    else if (!ids.includes(id)) ids.push(id);
  });
  return ids;
}
