/**
 * Content-service tags (spec §7): the colon split, the play icon of video and podcast formats
 * and the `?tag=` match, by tables and properties.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  hasPlayIcon,
  matchesTag,
  splitTag,
  tagsOfType,
  toContentTag,
} from '../../src/lib/content/tags.ts';

describe('splitTag', () => {
  test.each([
    ['format:podcast', 'format', 'podcast'],
    ['theme:endormissement', 'theme', 'endormissement'],
    [' format : vidéo ', 'format', 'vidéo'],
    ['a:b:c', 'a', 'b:c'],
    ['podcast', null, 'podcast'],
    [':podcast', null, ':podcast'],
    ['format:', null, 'format:'],
    [' : ', null, ':'],
    ['', null, ''],
  ])('%j → %j / %j', (label, type, name) => {
    expect(splitTag(label)).toEqual({ type, name });
  });

  test('splits at the first colon: type has no colon, and the parts give the label back', () => {
    fc.assert(
      fc.property(fc.string(), (label) => {
        const { type, name } = splitTag(label);
        if (type === null) {
          expect(name).toBe(label.trim());
        } else {
          expect(type).not.toContain(':');
          expect(type).toBe(type.trim());
          expect(name).toBe(name.trim());
          expect(type).not.toBe('');
          expect(name).not.toBe('');
          const colon = label.indexOf(':');
          expect(label.slice(0, colon).trim()).toBe(type);
          expect(label.slice(colon + 1).trim()).toBe(name);
        }
      }),
    );
  });

  test('toContentTag keeps the id and the trimmed label', () => {
    expect(toContentTag('formatPodcast', ' format:podcast ')).toEqual({
      id: 'formatPodcast',
      label: 'format:podcast',
      type: 'format',
      name: 'podcast',
    });
  });
});

describe('hasPlayIcon', () => {
  const tag = (label: string) => toContentTag(label.replace(/\W/g, ''), label);
  test.each([
    [['format:podcast'], true],
    [['format:video'], true],
    [['Format:Video'], true],
    [['theme:respiration', 'format:video'], true],
    [['format:histoire'], false],
    [['format:article'], false],
    [['theme:podcast'], false],
    [['podcast'], false],
    [[], false],
  ])('%j → %s', (labels, expected) => {
    expect(hasPlayIcon(labels.map(tag))).toBe(expected);
  });
});

describe('tag helpers', () => {
  const tags = ['format:podcast', 'theme:respiration', 'theme:endormissement', 'divers'].map(
    (label) => toContentTag(label.replace(/\W/g, ''), label),
  );
  test('tagsOfType keeps the order', () => {
    expect(tagsOfType(tags, 'theme').map((t) => t.name)).toEqual(['respiration', 'endormissement']);
  });
  test.each([
    ['podcast', true],
    ['PODCAST', true],
    ['format:podcast', true],
    ['formatpodcast', true],
    [' podcast ', true],
    ['format', false],
    ['', false],
  ])('matchesTag(format:podcast, %j) = %s', (value, expected) => {
    const [podcast] = tags;
    expect(podcast && matchesTag(podcast, value)).toBe(expected);
  });
});
