import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  MAIN_SHOP_PATH,
  RESELLER_PATH,
  resellerGuard,
  type ResellerVisitor,
} from '../../src/lib/commerce/reseller.ts';
import { RESELLER_LOGIN_PATH } from '../../src/lib/commerce/routes.ts';

const url = (path: string) => new URL(path, 'https://www.literie.test');

describe('resellerGuard (spec §2 reseller area)', () => {
  test.each<[string, string, ResellerVisitor, unknown]>([
    ['visitor on the login page stays', RESELLER_LOGIN_PATH, 'visitor', { kind: 'next' }],
    [
      'visitor elsewhere goes to the login page, the path kept',
      `${RESELLER_PATH}/panier?x=1`,
      'visitor',
      {
        kind: 'redirect',
        location: RESELLER_LOGIN_PATH,
        returnPath: `${RESELLER_PATH}/panier?x=1`,
      },
    ],
    [
      'visitor on the home',
      RESELLER_PATH,
      'visitor',
      { kind: 'redirect', location: RESELLER_LOGIN_PATH, returnPath: RESELLER_PATH },
    ],
    [
      'customer goes to the main shop',
      `${RESELLER_PATH}/panier`,
      'customer',
      { kind: 'redirect', location: MAIN_SHOP_PATH },
    ],
    [
      'customer on the login page too',
      RESELLER_LOGIN_PATH,
      'customer',
      { kind: 'redirect', location: MAIN_SHOP_PATH },
    ],
    ['reseller passes', `${RESELLER_PATH}/panier`, 'reseller', { kind: 'next' }],
    [
      'reseller on the login page goes home',
      RESELLER_LOGIN_PATH,
      'reseller',
      { kind: 'redirect', location: RESELLER_PATH },
    ],
  ])('%s', (_name, path, who, decision) => {
    expect(resellerGuard(url(path), who)).toEqual(decision);
  });

  test('only a reseller ever passes outside the login page; a redirect is always local', () => {
    fc.assert(
      fc.property(
        fc.webPath(),
        fc.constantFrom<ResellerVisitor>('visitor', 'customer', 'reseller'),
        (tail, who) => {
          const decision = resellerGuard(url(`${RESELLER_PATH}/${tail.replace(/^\/+/, '')}`), who);
          const target = new URL(`${RESELLER_PATH}/${tail.replace(/^\/+/, '')}`, 'https://x.test');
          if (decision.kind === 'next') {
            expect(who === 'reseller' || target.pathname === RESELLER_LOGIN_PATH).toBe(true);
          } else {
            expect(decision.location.startsWith('/')).toBe(true);
            expect(decision.location.startsWith('//')).toBe(false);
          }
        },
      ),
    );
  });
});
