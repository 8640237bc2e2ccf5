/**
 * Editing the sandbox's Contentful as an editor would (its management API: update, then
 * publish; create; unpublish), which sends the shop a signed webhook when one is registered.
 * Used by the publish tests and `bench:rebuild` (`@literie/sandbox/editor`).
 */
import { CONTENTFUL_DEFAULTS as SANDBOX_CONTENTFUL } from './contentful-store.ts';

const AUTH = { authorization: `Bearer ${SANDBOX_CONTENTFUL.managementToken}` };

function entriesUrl(sandboxUrl: string): string {
  return `${sandboxUrl}/contentful-management/spaces/${SANDBOX_CONTENTFUL.spaceId}/environments/${SANDBOX_CONTENTFUL.environment}/entries`;
}

interface ManagedEntry {
  sys: { id: string; version: number; publishedVersion?: number };
  fields: Record<string, Record<string, unknown> | undefined>;
  metadata?: unknown;
}

async function readEntry(sandboxUrl: string, entryId: string): Promise<ManagedEntry> {
  const read = await fetch(`${entriesUrl(sandboxUrl)}/${entryId}`, { headers: AUTH });
  if (!read.ok) throw new Error(`GET ${entryId}: ${String(read.status)}`);
  return (await read.json()) as ManagedEntry;
}

/** Writes `fields` (`{ field: { fr: value } }`) of entry `entryId` at `version` (0: a new one). */
async function writeEntry(
  sandboxUrl: string,
  entryId: string,
  version: number,
  body: { fields: ManagedEntry['fields']; metadata?: unknown },
  contentType?: string,
): Promise<number> {
  const put = await fetch(`${entriesUrl(sandboxUrl)}/${entryId}`, {
    method: 'PUT',
    headers: {
      ...AUTH,
      'content-type': 'application/vnd.contentful.management.v1+json',
      ...(version > 0 ? { 'x-contentful-version': String(version) } : {}),
      ...(contentType === undefined ? {} : { 'x-contentful-content-type': contentType }),
    },
    body: JSON.stringify(body),
  });
  if (!put.ok) throw new Error(`PUT ${entryId}: ${String(put.status)} ${await put.text()}`);
  return ((await put.json()) as ManagedEntry).sys.version;
}

async function publishVersion(sandboxUrl: string, entryId: string, version: number) {
  const published = await fetch(`${entriesUrl(sandboxUrl)}/${entryId}/published`, {
    method: 'PUT',
    headers: { ...AUTH, 'x-contentful-version': String(version) },
  });
  if (!published.ok) {
    throw new Error(`publish ${entryId}: ${String(published.status)} ${await published.text()}`);
  }
}

/** Sets `fields[field].fr` of entry `entryId` and publishes it; throws on any refusal. */
export async function publishEntryField(
  sandboxUrl: string,
  entryId: string,
  field: string,
  value: unknown,
): Promise<void> {
  const entry = await readEntry(sandboxUrl, entryId);
  const version = await writeEntry(sandboxUrl, entryId, entry.sys.version, {
    fields: { ...entry.fields, [field]: { fr: value } },
    metadata: entry.metadata,
  });
  await publishVersion(sandboxUrl, entryId, version);
}

/**
 * Creates entry `entryId` of `contentType` with `fields` (plain values, written under `fr`) and
 * publishes it; throws on any refusal (an entry of that id already there, a required field
 * missing).
 */
export async function publishNewEntry(
  sandboxUrl: string,
  entryId: string,
  contentType: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const localized = Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, { fr: value }]),
  );
  const version = await writeEntry(sandboxUrl, entryId, 0, { fields: localized }, contentType);
  await publishVersion(sandboxUrl, entryId, version);
}

/** Unpublishes entry `entryId` (it stays, as a draft); throws on any refusal. */
export async function unpublishEntry(sandboxUrl: string, entryId: string): Promise<void> {
  const entry = await readEntry(sandboxUrl, entryId);
  const unpublished = await fetch(`${entriesUrl(sandboxUrl)}/${entryId}/published`, {
    method: 'DELETE',
    headers: { ...AUTH, 'x-contentful-version': String(entry.sys.version) },
  });
  if (!unpublished.ok) {
    throw new Error(
      `unpublish ${entryId}: ${String(unpublished.status)} ${await unpublished.text()}`,
    );
  }
}

/** The published entries of `contentType`: their ids and fields (the `fr` values). */
export async function publishedEntries(
  sandboxUrl: string,
  contentType: string,
): Promise<{ id: string; fields: Record<string, unknown> }[]> {
  const found: { id: string; fields: Record<string, unknown> }[] = [];
  for (let skip = 0; ; skip += 1000) {
    const list = await fetch(
      `${entriesUrl(sandboxUrl)}?content_type=${encodeURIComponent(contentType)}&limit=1000&skip=${String(skip)}`,
      { headers: AUTH },
    );
    if (!list.ok) throw new Error(`GET entries of ${contentType}: ${String(list.status)}`);
    const page = (await list.json()) as { items: ManagedEntry[]; total: number };
    for (const entry of page.items) {
      if (entry.sys.publishedVersion === undefined) continue;
      const fields = Object.fromEntries(
        Object.entries(entry.fields).map(([name, values]) => [name, values?.fr]),
      );
      found.push({ id: entry.sys.id, fields });
    }
    if (skip + 1000 >= page.total) return found;
  }
}
