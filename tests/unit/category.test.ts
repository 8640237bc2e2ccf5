import { describe, expect, test } from 'vitest';
import {
  categoryRouteOf,
  HIDE_CATEGORY_KEY,
  breadcrumbs,
  findCategoryByPath,
  hiddenCategoryIds,
  isCategoryShown,
  visibleTree,
} from '../../src/lib/commerce/category.ts';
import type { CategoryNode, Metafield } from '../../src/lib/commerce/types.ts';
import { category } from './fixtures.ts';

function meta(resourceId: number, key: string, value: string): Metafield {
  return { id: resourceId, key, value, namespace: 'storefront', resourceId };
}

const tree = [
  category(1, 'Matelas', '/matelas/', [
    category(11, 'Matelas ressorts', '/matelas/matelas-ressorts/', [
      category(111, 'Ressorts ensachés', '/matelas/matelas-ressorts/ensaches/'),
    ]),
    category(12, 'Matelas latex', '/matelas/matelas-latex/', [], false),
  ]),
  category(2, 'Linge de lit', '/linge-de-lit/', [category(21, 'Draps', '/linge-de-lit/draps/')]),
  category(3, 'Soldes cachées', '/soldes/'),
];

describe('isCategoryShown (spec §5: visible and not marked hide-category)', () => {
  test.each([
    ['visible, no metafield', true, [], true],
    ['invisible', false, [], false],
    ['hide-category true', true, [meta(5, HIDE_CATEGORY_KEY, 'true')], false],
    ['hide-category TRUE with spaces', true, [meta(5, 'hide-category', ' TRUE ')], false],
    ['hide-category false', true, [meta(5, 'hide-category', 'false')], true],
    ['hide-category of another category', true, [meta(6, 'hide-category', 'true')], true],
    ['other key', true, [meta(5, 'hide', 'true')], true],
  ])('%s', (_case, isVisible, metafields, shown) => {
    expect(isCategoryShown({ id: 5, isVisible }, metafields)).toBe(shown);
  });
});

describe('visibleTree', () => {
  test.each([
    ['drops invisible categories', [], [1, 11, 111, 2, 21, 3]],
    ['drops hidden categories with their children', [11, 3], [1, 2, 21]],
  ])('%s', (_case, hidden, ids) => {
    const ids2: number[] = [];
    const walk = (nodes: typeof tree): void => {
      for (const n of nodes) {
        ids2.push(n.id);
        walk(n.children);
      }
    };
    walk(visibleTree(tree, hidden));
    expect(ids2).toEqual(ids);
  });

  test('hidden ids from metafields', () => {
    expect([
      ...hiddenCategoryIds([meta(3, 'hide-category', 'true'), meta(2, 'hide-category', 'no')]),
    ]).toEqual([3]);
  });
});

describe('findCategoryByPath', () => {
  test.each([
    ['upstream url', '/matelas/matelas-ressorts/', 11],
    ['shop path', '/c/matelas/matelas-ressorts/ensaches', 111],
    ['case and trailing slash ignored', '/C/Linge-De-Lit/Draps/', 21],
    ['unknown', '/c/oreillers', undefined],
  ])('%s', (_case, path, id) => {
    expect(findCategoryByPath(tree, path)?.id).toBe(id);
  });
});

describe('breadcrumbs', () => {
  test.each([
    [
      'deep category',
      111,
      [
        { id: 1, name: 'Matelas', path: '/c/matelas' },
        { id: 11, name: 'Matelas ressorts', path: '/c/matelas/matelas-ressorts' },
        { id: 111, name: 'Ressorts ensachés', path: '/c/matelas/matelas-ressorts/ensaches' },
      ],
    ],
    ['root category', 2, [{ id: 2, name: 'Linge de lit', path: '/c/linge-de-lit' }]],
    ['unknown id', 999, []],
  ])('%s', (_case, id, trail) => {
    expect(breadcrumbs(tree, id)).toEqual(trail);
  });
});

describe('categoryRouteOf (old storefront paths of categories)', () => {
  const tree: CategoryNode[] = [
    {
      id: 1,
      parentId: 0,
      name: 'Matelas',
      url: '/matelas/',
      isVisible: true,
      children: [
        {
          id: 2,
          parentId: 1,
          name: 'Matelas hybrides',
          url: '/matelas/matelas-hybrides/',
          isVisible: true,
          children: [],
        },
      ],
    },
  ];
  test.each([
    ['/matelas/matelas-hybrides', '/c/matelas/matelas-hybrides'],
    ['/Matelas/', '/c/matelas'],
    ['/matelas/inconnu', null],
    ['/', null],
    ['', null],
  ])('%s → %s', (path, expected) => {
    expect(categoryRouteOf(tree, path)).toBe(expected);
  });
});
