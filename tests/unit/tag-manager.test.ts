import { describe, expect, test } from 'vitest';
import {
  containerScriptUrl,
  isContainerId,
  loadContainer,
  parseContainerId,
  TagManagerSettingError,
  type ContainerDocument,
} from '../../src/lib/analytics/tag-manager.ts';

describe('GTM_CONTAINER_ID (spec §7 tag-manager container setting)', () => {
  test.each([
    ['unset: no container', undefined, null],
    ['blank: no container', '  ', null],
    ['a web container id', 'GTM-AB12CD3', 'GTM-AB12CD3'],
    ['surrounding spaces dropped', ' GTM-TEST123 ', 'GTM-TEST123'],
  ])('%s', (_case, value, expected) => {
    expect(parseContainerId(value)).toBe(expected);
  });

  test.each([
    ['lower case', 'gtm-ab12cd3'],
    ['a GA4 measurement id', 'G-AB12CD3EF'],
    ['too short', 'GTM-AB1'],
    ['a script in disguise', 'GTM-AB12"><script>'],
    ['a query added', 'GTM-AB12CD3&l=x'],
  ])('refused: %s', (_case, value) => {
    expect(isContainerId(value)).toBe(false);
    expect(() => parseContainerId(value)).toThrow(TagManagerSettingError);
  });

  test('the container script URL', () => {
    expect(containerScriptUrl('GTM-TEST123')).toBe(
      'https://www.googletagmanager.com/gtm.js?id=GTM-TEST123',
    );
  });
});

/** A document with just what loadContainer uses, recording the appended scripts. */
function fakeDocument() {
  const appended: { async: boolean; src: string; dataset: Record<string, string> }[] = [];
  const doc: ContainerDocument = {
    querySelector: (selector) =>
      selector === 'script[data-tag-manager]' ? (appended[0] ?? null) : null,
    createElement: () => ({ async: false, src: '', dataset: {} }),
    head: {
      append: (node: never) => {
        appended.push(node);
      },
    },
  };
  return { doc, appended };
}

describe('loadContainer (what Google snippet does, without an inline script)', () => {
  test('pushes gtm.start after the events already waiting, then appends the async script once', () => {
    const { doc, appended } = fakeDocument();
    const host = { dataLayer: [{ event: 'view_item' }] as unknown[] };
    expect(loadContainer('GTM-TEST123', doc, host, 1_700_000_000_000)).toBe(true);
    expect(host.dataLayer).toEqual([
      { event: 'view_item' },
      { 'gtm.start': 1_700_000_000_000, event: 'gtm.js' },
    ]);
    expect(appended).toEqual([
      {
        async: true,
        src: 'https://www.googletagmanager.com/gtm.js?id=GTM-TEST123',
        dataset: { tagManager: 'GTM-TEST123' },
      },
    ]);
    expect(loadContainer('GTM-TEST123', doc, host)).toBe(false);
    expect(appended).toHaveLength(1);
    expect(host.dataLayer).toHaveLength(2);
  });

  test('creates the data layer; refuses an id of another form', () => {
    const { doc, appended } = fakeDocument();
    const host: { dataLayer?: unknown[] } = {};
    expect(loadContainer('GTM-X"', doc, host)).toBe(false);
    expect(host.dataLayer).toBeUndefined();
    expect(appended).toEqual([]);
    loadContainer('GTM-TEST123', doc, host, 5);
    expect(host.dataLayer).toEqual([{ 'gtm.start': 5, event: 'gtm.js' }]);
  });
});
