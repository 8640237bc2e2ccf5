import { describe, expect, test } from 'vitest';
import { supportLinks, type SupportSettings } from '../../src/lib/support-links.ts';

const site = (url: string) => ({ url, external: true });
const page = (url: string) => ({ url, external: false });

describe('supportLinks (spec §2 sidebars, §9 support site: FAQ and a new-request page)', () => {
  test.each<[string, SupportSettings, ReturnType<typeof supportLinks>]>([
    [
      'nothing configured: the shop’s own help, FAQ and contact pages',
      {},
      { help: page('/aide'), faq: page('/faq'), contact: page('/contact') },
    ],
    [
      'SUPPORT_URL: help and FAQ open the site, contact its new-request page, in a new tab',
      { base: 'https://aide.literie-exemple.fr' },
      {
        help: site('https://aide.literie-exemple.fr'),
        faq: site('https://aide.literie-exemple.fr'),
        contact: site('https://aide.literie-exemple.fr/requests/new'),
      },
    ],
    [
      'a trailing slash and spaces are dropped before /requests/new',
      { base: ' https://aide.literie-exemple.fr/hc/fr/ ' },
      {
        help: site('https://aide.literie-exemple.fr/hc/fr'),
        faq: site('https://aide.literie-exemple.fr/hc/fr'),
        contact: site('https://aide.literie-exemple.fr/hc/fr/requests/new'),
      },
    ],
    [
      'SUPPORT_FAQ_URL and SUPPORT_REQUEST_URL win over the derived pages',
      {
        base: 'https://aide.literie-exemple.fr',
        faq: 'https://aide.literie-exemple.fr/hc/fr/categories/faq',
        request: 'https://formulaires.literie-exemple.fr/demande',
      },
      {
        help: site('https://aide.literie-exemple.fr'),
        faq: site('https://aide.literie-exemple.fr/hc/fr/categories/faq'),
        contact: site('https://formulaires.literie-exemple.fr/demande'),
      },
    ],
    [
      'only the two pages configured: help goes to the FAQ',
      { faq: 'https://faq.example/questions', request: '/nous-ecrire' },
      {
        help: site('https://faq.example/questions'),
        faq: site('https://faq.example/questions'),
        contact: page('/nous-ecrire'),
      },
    ],
    [
      'empty settings are unset',
      { base: '', faq: ' ', request: '' },
      { help: page('/aide'), faq: page('/faq'), contact: page('/contact') },
    ],
    [
      'a javascript: or protocol-relative value is no link: ignored',
      { base: 'javascript:alert(1)', faq: '//evil.example/faq', request: 'ftp://x.example/new' },
      { help: page('/aide'), faq: page('/faq'), contact: page('/contact') },
    ],
    [
      'a URL with credentials is refused',
      { base: 'https://user:secret@aide.example' },
      { help: page('/aide'), faq: page('/faq'), contact: page('/contact') },
    ],
  ])('%s', (_case, settings, expected) => {
    expect(supportLinks(settings)).toEqual(expected);
  });
});
