/**
 * Which pages a batch of edits touches, for the kept-alive build (publisher-loop.ts): the
 * catalogue before and after, indexed as the pages index it, with the content and navigations
 * before and after, through the one table of what each page reads
 * (src/shop/publish/affected.ts). It compares the data, not the events: the first edit
 * only names the decision in the log.
 */
import { indexCatalogue, type Catalogue } from '../../shop/loaders/catalogue-index.ts';
import type { CatalogueRead } from '../../shop/loaders/catalogue-source.ts';
import { affectedPages, type PublishEvent, type SiteData } from '../../shop/publish/affected.ts';
import type { Edit, PublishState } from './publish-data.ts';
import type { Decide } from './publisher-loop.ts';

/** Catalogues indexed, by read: the next edit's "before" is this one's "after". */
const indexes = new WeakMap<CatalogueRead, Catalogue>();

/** The read indexed as the pages index it, once per read. */
export function indexed(read: CatalogueRead): Catalogue {
  let catalogue = indexes.get(read);
  if (catalogue === undefined) {
    catalogue = indexCatalogue(read);
    indexes.set(read, catalogue);
  }
  return catalogue;
}

/** The event an edit stands for, to name the decision. */
function eventOf(edit: Edit): PublishEvent {
  return edit.resource === 'content'
    ? { source: 'contentful', topic: edit.topic, id: edit.id }
    : { source: 'bigcommerce', resource: edit.resource, action: 'updated', id: edit.id };
}

export const decide: Decide = (before, after, edits) => {
  const first = edits[0];
  if (first === undefined) return { kind: 'full', reason: 'a publish without an edit' };
  const site = (state: PublishState): SiteData => ({
    catalogue: indexed(state.catalogue),
    content: state.content,
    navigations: state.navigations,
  });
  const affected = affectedPages(site(before), site(after), eventOf(first));
  if (affected.kind === 'full') return affected;
  return {
    kind: 'partial',
    render: affected.render,
    remove: affected.remove,
    pageSetChanged: affected.pageSetChanged,
  };
};
