/**
 * One page of the "Les yeux fermés" list, filtered by a tag or not (spec §2): the entries of
 * that page, the tags the filter offers, the page count. The filter names its tag by id or by
 * name; `activeTag` of the page is the tag's id. Null when the tag or the page does
 * not exist: the route answers 404 (spec §8 route validation). Pure.
 */
import { paginate, usedTags } from '../../../lib/content/sleep-content.ts';
import { matchesTag } from '../../../lib/content/tags.ts';
import type { ContentTag, SleepContent } from '../../../lib/content/types.ts';

export interface SleepListPage {
  entries: SleepContent[];
  tags: ContentTag[];
  activeTag: string | null;
  page: number;
  totalPages: number;
  total: number;
}

export function sleepListPage(
  all: readonly SleepContent[],
  tags: readonly ContentTag[],
  activeTag: string | null,
  page: number,
): SleepListPage | null {
  const offered = usedTags(tags, all);
  // The filter names a tag by id (`formatPodcast`) or by name (`podcast`, an editor's link).
  const active =
    activeTag === null
      ? null
      : (offered.find((tag) => tag.id === activeTag) ??
        offered.find((tag) => matchesTag(tag, activeTag)));
  if (active === undefined) return null;
  const matching =
    active === null
      ? [...all]
      : all.filter((entry) => entry.tags.some((tag) => tag.id === active.id));
  const { items, pagination } = paginate(matching, page);
  if (page < 1 || page > pagination.totalPages) return null;
  return {
    entries: items,
    tags: offered,
    activeTag: active?.id ?? null,
    page,
    totalPages: pagination.totalPages,
    total: pagination.total,
  };
}
