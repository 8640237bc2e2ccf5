/**
 * Which pages a batch of commerce edits touches, for the kept-alive build (publisher-loop.ts):
 * the catalogue before and after, indexed as the pages index it, with the content and
 * navigations the pages were rendered from (loaders/handoff.ts), through the one table of what
 * each page reads (src/lib/server/publish/affected.ts). It compares the data, not the events:
 * the first edit only names the decision in the log.
 */
import { indexCatalogue, type Catalogue } from '../../src/lib/server/loaders/catalogue-index.ts';
import type { CatalogueRead } from '../../src/lib/server/loaders/catalogue-source.ts';
import { handedOver } from '../../src/lib/server/loaders/handoff.ts';
import { affectedPages, type SiteData } from '../../src/lib/server/publish/affected.ts';
import type { Decide } from './publisher-loop.ts';

/** The last catalogue indexed: the next edit's "before" is this one's "after". */
let lastIndexed: { read: CatalogueRead; catalogue: Catalogue } | null = null;

function indexed(read: CatalogueRead): Catalogue {
  if (lastIndexed?.read === read) return lastIndexed.catalogue;
  const catalogue = indexCatalogue(read);
  lastIndexed = { read, catalogue };
  return catalogue;
}

export const decide: Decide = (before, after, edits) => {
  const content = handedOver('site-content');
  const navigations = handedOver('navigations');
  const first = edits[0];
  if (content === undefined || navigations === undefined || first === undefined) {
    return { kind: 'full', reason: 'the build did not hand over the content its pages show' };
  }
  const site = (catalogue: Catalogue): SiteData => ({ catalogue, content, navigations });
  const old = site(indexed(before));
  const affected = affectedPages(old, site(indexed(after)), {
    source: 'bigcommerce',
    resource: first.resource,
    action: 'updated',
    id: first.id,
  });
  if (affected.kind === 'full') return affected;
  return {
    kind: 'partial',
    render: affected.render,
    remove: affected.remove,
    pageSetChanged: affected.pageSetChanged,
  };
};
