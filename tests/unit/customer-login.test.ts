import { describe, expect, test } from 'vitest';
import { customerLoginUrl, signCustomerLoginJwt } from '../../src/shop/auth/customer-login.ts';

// Computed independently (Python hmac/base64) for these claims and the sandbox's secret.
const KNOWN_JWT =
  'eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.' +
  'eyJpc3MiOiJzYW5kYm94LWNsaWVudCIsImlhdCI6MTcwMDAwMDAwMCwianRpIjoiMGY1ZDNjMmEtMTExMS00MjIyLTgzMzMtOTQ0NDQ1NTU1NjY2Iiwib3BlcmF0aW9uIjoiY3VzdG9tZXJfbG9naW4iLCJzdG9yZV9oYXNoIjoic2FuZGJveCIsImN1c3RvbWVyX2lkIjoxLCJyZWRpcmVjdF90byI6Ii9jYXJ0LnBocD9hY3Rpb249bG9hZCZpZD1hYmMmdG9rZW49eHl6In0.' +
  '3Frq7ef-zABxZS2uaKhMMW_xWOX2prnecGwaObfyb5w';

const claims = {
  clientId: 'sandbox-client',
  storeHash: 'sandbox',
  customerId: 1,
  issuedAt: 1_700_000_000,
  jti: '0f5d3c2a-1111-4222-8333-944445555666',
};

describe('Customer Login API JWT (HS256)', () => {
  test('known answer', () => {
    const jwt = signCustomerLoginJwt(
      { ...claims, redirectTo: '/cart.php?action=load&id=abc&token=xyz' },
      'sandbox-client-secret',
    );
    expect(jwt).toBe(KNOWN_JWT);
  });

  test('the URL: checkout origin, /login/token/, redirect_to = checkout path and query', () => {
    const url = customerLoginUrl(
      'http://127.0.0.1:4010/cart.php?action=load&id=abc&token=xyz',
      claims,
      'sandbox-client-secret',
    );
    expect(url).toBe(`http://127.0.0.1:4010/login/token/${KNOWN_JWT}`);
  });

  test('a channel other than 1 is a claim; each token has its own jti', () => {
    const decode = (jwt: string) =>
      JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<
        string,
        unknown
      >;
    const a = decode(
      signCustomerLoginJwt({ ...claims, jti: undefined, channelId: 2, redirectTo: '/' }, 's'),
    );
    const b = decode(signCustomerLoginJwt({ ...claims, jti: undefined, redirectTo: '/' }, 's'));
    expect(a.channel_id).toBe(2);
    expect(b).not.toHaveProperty('channel_id');
    expect(a.jti).not.toBe(b.jti);
  });
});
