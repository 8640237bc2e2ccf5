/**
 * Hostile content of the sandbox's Contentful space (seeded only with the `hostile` option, as
 * seed/hostile.ts is for the catalogue): a content page (`/page-piegee`), a sleep entry
 * (`/les-yeux-fermes/episode-piege`) and Footer calls to action whose rich text, titles and
 * URLs carry stored-XSS attempts: markup in text values, `javascript:` links in every spelling,
 * `data:` and `vbscript:` links, unknown node types with a `value`, unknown marks, attributes in
 * `data`. Each payload, if it ran, would call `alert(n)` or request `/xss/n` (n from 201), like
 * the catalogue's payloads. A renderer must escape every text and drop every link it does not
 * allow (http(s), mailto, tel, local paths).
 */
import { entryLink, type Fields, type StoredAsset } from './contentful-model.ts';
import type { RichDocument, RichNode } from './rich-text.ts';
import { text } from './rich-text.ts';

export interface HostileEntry {
  id: string;
  contentType: string;
  fields: Fields;
  tags: string[];
}

/** The `javascript:`-like URIs of the hyperlinks, each with its payload number. */
export const HOSTILE_URIS: readonly string[] = [
  'javascript:alert(201)',
  'JaVaScRiPt:alert(202)',
  '  javascript:alert(203)',
  '\tjavascript:alert(204)',
  'java\tscript:alert(205)',
  'java\nscript:alert(206)',
  '&#106;avascript:alert(207)',
  'javascript&colon;alert(208)',
  '\u0000javascript:alert(209)',
  'data:text/html,<script>alert(210)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgyMTEpPC9zY3JpcHQ+',
  'vbscript:msgbox(212)',
  '//evil.example.com/xss/213',
  'https://example.com/" onmouseover="alert(214)',
  '/\\evil.example.com/xss/215',
];

/** Markup placed in text values. */
export const HOSTILE_TEXTS: readonly string[] = [
  '<script>alert(221)</script>',
  '<img src=x onerror=alert(222)>',
  '<iframe src="javascript:alert(223)"></iframe>',
  '<iframe srcdoc="&lt;script&gt;alert(224)&lt;/script&gt;"></iframe>',
  '<svg onload=alert(225)></svg>',
  '<a href="javascript:alert(226)">lien 226</a>',
  '"><img src=/xss/227>',
  '</p><script>alert(228)</script><p>',
  '{{constructor.constructor("alert(229)")()}}',
];

function para(...content: RichNode[]): RichNode {
  return { nodeType: 'paragraph', data: {}, content: [text(''), ...content, text('')] };
}

function hostileDocument(): RichDocument {
  return {
    nodeType: 'document',
    data: {},
    content: [
      {
        nodeType: 'heading-2',
        data: { onclick: 'alert(230)', style: 'background:url(javascript:alert(231))' },
        content: [text('Titre <b onmouseover=alert(232)>piégé</b>')],
      },
      ...HOSTILE_TEXTS.map((value, index) =>
        para(text(value, index % 2 === 0 ? ['bold'] : ['italic', 'code'])),
      ),
      para(
        ...HOSTILE_URIS.flatMap((uri, index) => [
          {
            nodeType: 'hyperlink',
            data: { uri },
            content: [text(`lien piégé ${201 + index}`)],
          },
          text(' '),
        ]),
      ),
      // Unknown node types carrying a value or children.
      { nodeType: 'script', data: {}, value: '<script>alert(240)</script>', content: [] },
      {
        nodeType: 'html',
        data: { html: '<img src=x onerror=alert(241)>' },
        value: '<img src=x onerror=alert(241)>',
      },
      {
        nodeType: 'iframe',
        data: { src: 'javascript:alert(242)' },
        content: [text('<iframe src=javascript:alert(242)>')],
      },
      // Unknown marks.
      para(
        text('marques inconnues', [
          'script',
          'onclick',
          '"><img src=x onerror=alert(243)>',
          'bold',
        ]),
      ),
      // A hyperlink node with a uri that is not a string, and one without data.
      para({
        nodeType: 'hyperlink',
        data: { uri: { toString: 'javascript:alert(244)' } },
        content: [text('uri objet')],
      }),
      para({ nodeType: 'hyperlink', data: {}, content: [text('sans uri')] }),
      // Embedded entries that do not resolve (an unpublished draft and a missing id).
      {
        nodeType: 'embedded-entry-block',
        data: { target: entryLink('page-offres-d-ete') },
        content: [],
      },
      {
        nodeType: 'embedded-entry-block',
        data: { target: entryLink('does-not-exist') },
        content: [],
      },
      {
        nodeType: 'table',
        data: {},
        content: [
          {
            nodeType: 'table-row',
            data: {},
            content: [
              {
                nodeType: 'table-header-cell',
                data: { colspan: '" onmouseover="alert(245)' },
                content: [para(text('<script>alert(246)</script>'))],
              },
            ],
          },
        ],
      },
    ],
  };
}

export interface HostileContent {
  entries: HostileEntry[];
  /** Entry ids of hostile calls to action, added to the Footer. */
  footerLinks: string[];
  assets: StoredAsset[];
}

export function hostileContent(): HostileContent {
  const cta = (id: string, title: string, type: string, url: string): HostileEntry => ({
    id: `cta-piege-${id}`,
    contentType: 'callToAction',
    fields: { title, type, url },
    tags: [],
  });
  const links = [
    cta(
      'javascript',
      'Lien piégé <script>alert(250)</script>',
      'external',
      'javascript:alert(251)',
    ),
    cta('espaces', 'Lien piégé 2', 'internal', '  javascript:alert(252)'),
    cta('hors-site', 'Lien piégé 3', 'free', '//evil.example.com/xss/253'),
    cta('interne-absolu', 'Lien piégé 4', 'internal', 'https://evil.example.com/xss/254'),
    cta('data', 'Lien piégé 5', 'external', 'data:text/html,<script>alert(255)</script>'),
    cta('type-inconnu', 'Lien piégé 6', 'script', '/les-yeux-fermes'),
  ];
  return {
    entries: [
      ...links,
      {
        id: 'page-page-piegee',
        contentType: 'contentPage',
        fields: {
          title: 'Page piégée <img src=x onerror=alert(260)>',
          slug: 'page-piegee',
          description: '"><script>alert(261)</script>',
          body: hostileDocument(),
        },
        tags: [],
      },
      {
        id: 'sleep-episode-piege',
        contentType: 'sleepContent',
        fields: {
          title: 'Épisode piégé <script>alert(262)</script>',
          slug: 'episode-piege',
          excerpt: '<img src=x onerror=alert(263)>',
          episode: 99,
          duration: 1,
          body: hostileDocument(),
          related: [
            entryLink('sleep-episode-a-venir'),
            entryLink('sleep-le-phare-qui-voulait-dormir'),
          ],
          publishedAt: '2025-05-05',
        },
        tags: ['formatPodcast', 'themeRelaxation'],
      },
    ],
    footerLinks: links.map((l) => l.id),
    assets: [],
  };
}
