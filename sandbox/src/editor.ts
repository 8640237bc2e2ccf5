/**
 * Editing the sandbox's Contentful as an editor would (its management API: update, then
 * publish), which sends the shop a signed webhook when one is registered. Used by the publish
 * tests and `bench:rebuild` (`@literie/sandbox/editor`).
 */
import { CONTENTFUL_DEFAULTS as SANDBOX_CONTENTFUL } from './contentful-store.ts';

/** Sets `fields[field].fr` of entry `entryId` and publishes it; throws on any refusal. */
export async function publishEntryField(
  sandboxUrl: string,
  entryId: string,
  field: string,
  value: unknown,
): Promise<void> {
  const entryUrl = `${sandboxUrl}/contentful-management/spaces/${SANDBOX_CONTENTFUL.spaceId}/environments/${SANDBOX_CONTENTFUL.environment}/entries/${entryId}`;
  const auth = { authorization: `Bearer ${SANDBOX_CONTENTFUL.managementToken}` };
  const read = await fetch(entryUrl, { headers: auth });
  if (!read.ok) throw new Error(`GET ${entryId}: ${String(read.status)}`);
  const entry = (await read.json()) as {
    sys: { version: number };
    fields: Record<string, unknown>;
    metadata?: unknown;
  };
  const put = await fetch(entryUrl, {
    method: 'PUT',
    headers: {
      ...auth,
      'content-type': 'application/vnd.contentful.management.v1+json',
      'x-contentful-version': String(entry.sys.version),
    },
    body: JSON.stringify({
      fields: { ...entry.fields, [field]: { fr: value } },
      metadata: entry.metadata,
    }),
  });
  if (!put.ok) throw new Error(`PUT ${entryId}: ${String(put.status)} ${await put.text()}`);
  const updated = (await put.json()) as { sys: { version: number } };
  const published = await fetch(`${entryUrl}/published`, {
    method: 'PUT',
    headers: { ...auth, 'x-contentful-version': String(updated.sys.version) },
  });
  if (!published.ok) {
    throw new Error(`publish ${entryId}: ${String(published.status)} ${await published.text()}`);
  }
}
