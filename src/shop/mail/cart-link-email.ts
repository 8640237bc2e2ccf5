/**
 * The French e-mail of a cart sent by a reseller to a client (spec §1, §2 "send the cart to a
 * client"; texts from `fr.json`, `mail.cartLink.*`): a designed HTML e-mail (600 px,
 * table layout, inline styles, no picture needed) with a plain-text part, listing each line
 * (name, options, quantity, unit price, line total) and the total to pay (cart_amount, VAT
 * included), who prepared the cart (the seller and the reseller's shop, with their contact), the
 * shop's contact, the link that opens the cart (`?id&token`, spec §2 redirect-to-cart) and how
 * long it works (`CART_LINK_VALID_DAYS`). Every text in the HTML goes through `escapeHtml`.
 */
import { cartItems, cartTotals, cartTotalsView, type CartState } from '../../lib/commerce/cart.ts';
import { optionValueText } from '../../lib/commerce/item-options.ts';
import { formatPrice } from '../../lib/commerce/money.ts';
import type { PreparedBy } from '../../lib/commerce/sent-carts.ts';
import { escapeHtml } from '../../lib/commerce/text.ts';
import { t } from '../../lib/i18n/index.ts';
import type { MailAddress, TransactionalEmail } from '../connectors/brevo/index.ts';

export interface CartLinkEmailInput {
  to: string;
  sender: MailAddress;
  /** The cart as sent (its lines and totals). */
  cart: CartState;
  preparedBy: PreparedBy;
  /** The shop's contact (COMPANY_EMAIL, COMPANY_PHONE). */
  shopContact: { email: string; phone: string };
  link: string;
  /** How many days the link works (`CART_LINK_VALID_DAYS`). */
  validDays: number;
}

/** A cart line as the e-mail shows it. */
export interface MailLine {
  name: string;
  /** "Taille : 140x190 cm · Reprise de l’ancien matelas : Oui", or ''. */
  options: string;
  quantity: number;
  unit: string;
  total: string;
}

export function mailLines(cart: CartState): MailLine[] {
  const currency = cart.currency;
  return cartItems(cart).map((item) => ({
    name: item.name,
    options: item.options
      .map((option) => `${option.name} : ${optionValueText(option.value, t)}`)
      .join(' · '),
    quantity: item.quantity,
    unit: formatPrice(item.salePrice, { currency }),
    total: formatPrice(item.extendedSalePrice, { currency }),
  }));
}

// Colours of the shop's theme, as plain values (e-mail clients know no CSS variables).
const INK = '#1f2937';
const MUTED = '#4b5563';
const LINE = '#e5e7eb';
const BRAND = '#1e3a5f';
const PAPER = '#f5f3ef';
const FONT = 'font-family:Arial,Helvetica,sans-serif';

const cell = (style: string, content: string, align: 'left' | 'right' = 'left') =>
  `<td align="${align}" style="${FONT};${style}">${content}</td>`;

/** Contact lines (name, e-mail, phone) of a block, each escaped; empty values left out. */
function contactLines(lines: readonly string[]): string {
  return lines
    .filter((line) => line !== '')
    .map(escapeHtml)
    .join('<br>');
}

export function cartLinkEmail(input: CartLinkEmailInput): TransactionalEmail {
  const shop = t('shop.name');
  const { preparedBy: by } = input;
  const reseller = by.reseller === '' ? shop : by.reseller;
  const currency = input.cart.currency;
  const due = cartTotalsView(cartTotals(input.cart)).due;
  const total = formatPrice(due, { currency });
  // Lines show what each costs after its own sale price: only what the cart takes off on top
  // (a coupon, a cart discount) is a line of its own.
  const linesTotal = cartItems(input.cart).reduce((sum, item) => sum + item.extendedSalePrice, 0);
  const cartDiscount = linesTotal - due;
  const discount = cartDiscount > 0 ? `−${formatPrice(cartDiscount, { currency })}` : null;
  const lines = mailLines(input.cart);
  const intro = t('mail.cartLink.intro', { seller: by.seller, reseller, shop });
  const validity = t('mail.cartLink.validity', { days: input.validDays });
  const sellerContact = [
    `${by.seller} (${reseller})`,
    by.email === '' ? '' : t('mail.cartLink.email', { email: by.email }),
    by.phone === '' ? '' : t('mail.cartLink.phone', { phone: by.phone }),
  ];
  const shopContact = [
    shop,
    input.shopContact.email === ''
      ? ''
      : t('mail.cartLink.email', { email: input.shopContact.email }),
    input.shopContact.phone === ''
      ? ''
      : t('mail.cartLink.phone', { phone: input.shopContact.phone }),
  ];
  const preheader = t('mail.cartLink.preheader', { seller: by.seller, reseller, total });
  const link = escapeHtml(input.link);
  const head = (text: string, align: 'left' | 'right' = 'left') =>
    cell(
      `padding:8px 6px;border-bottom:2px solid ${BRAND};font-size:13px;color:${MUTED};font-weight:bold`,
      escapeHtml(text),
      align,
    );
  const rows = lines
    .map((line) => {
      const options =
        line.options === ''
          ? ''
          : `<br><span style="font-size:13px;color:${MUTED}">${escapeHtml(line.options)}</span>`;
      const td = (content: string, align: 'left' | 'right' = 'right') =>
        cell(
          `padding:10px 6px;border-bottom:1px solid ${LINE};font-size:14px;color:${INK}`,
          content,
          align,
        );
      return `<tr>${td(`<strong>${escapeHtml(line.name)}</strong>${options}`, 'left')}${td(String(line.quantity))}${td(escapeHtml(line.unit))}${td(escapeHtml(line.total))}</tr>`;
    })
    .join('');
  const sum = (label: string, value: string, strong: boolean) =>
    `<tr>${cell(`padding:10px 6px;font-size:${strong ? '17px;font-weight:bold' : '14px'};color:${INK}`, escapeHtml(label), 'left')}<td colspan="2"></td>${cell(`padding:10px 6px;font-size:${strong ? '17px;font-weight:bold' : '14px'};color:${INK};white-space:nowrap`, escapeHtml(value), 'right')}</tr>`;
  const block = (title: string, body: string) =>
    `<td valign="top" width="50%" style="${FONT};padding:12px;font-size:14px;line-height:1.5;color:${INK}"><strong style="color:${BRAND}">${escapeHtml(title)}</strong><br>${body}</td>`;
  const htmlContent = [
    '<!doctype html><html lang="fr"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(t('mail.cartLink.subject', { shop, reseller }))}</title></head>`,
    `<body style="margin:0;padding:0;background:${PAPER}">`,
    `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(preheader)}</div>`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${PAPER}"><tr><td align="center" style="padding:24px 12px">`,
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:8px">`,
    `<tr><td style="${FONT};background:${BRAND};color:#ffffff;padding:20px 24px;font-size:22px;font-weight:bold;border-radius:8px 8px 0 0">${escapeHtml(shop)}</td></tr>`,
    `<tr><td style="${FONT};padding:24px 24px 8px;font-size:16px;line-height:1.5;color:${INK}">`,
    `<p style="margin:0 0 12px">${escapeHtml(t('mail.cartLink.greeting'))}</p>`,
    `<p style="margin:0">${escapeHtml(intro)}</p></td></tr>`,
    `<tr><td style="padding:8px 18px">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">`,
    `<caption style="${FONT};text-align:left;padding:8px 6px;font-size:18px;font-weight:bold;color:${INK}">${escapeHtml(t('mail.cartLink.itemsTitle'))}</caption>`,
    `<tr>${head(t('mail.cartLink.product'))}${head(t('mail.cartLink.quantity'), 'right')}${head(t('mail.cartLink.unitPrice'), 'right')}${head(t('mail.cartLink.lineTotal'), 'right')}</tr>`,
    rows,
    discount === null ? '' : sum(t('mail.cartLink.discount'), discount, false),
    sum(t('mail.cartLink.total'), total, true),
    '</table></td></tr>',
    `<tr><td align="center" style="padding:16px 24px 8px">`,
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td align="center" style="background:${BRAND};border-radius:6px">`,
    `<a href="${link}" style="${FONT};display:inline-block;padding:14px 28px;font-size:17px;font-weight:bold;color:#ffffff;text-decoration:none">${escapeHtml(t('mail.cartLink.action'))}</a>`,
    '</td></tr></table></td></tr>',
    `<tr><td style="${FONT};padding:8px 24px 16px;font-size:14px;line-height:1.5;color:${MUTED}">`,
    `<p style="margin:0 0 8px"><strong style="color:${INK}">${escapeHtml(validity)}</strong></p>`,
    `<p style="margin:0 0 4px">${escapeHtml(t('mail.cartLink.linkFallback'))}</p>`,
    `<p style="margin:0;word-break:break-all"><a href="${link}" style="color:${BRAND}">${link}</a></p>`,
    `<p style="margin:12px 0 0">${escapeHtml(t('mail.cartLink.outro'))}</p></td></tr>`,
    `<tr><td style="padding:0 12px 12px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${PAPER};border-radius:6px"><tr>`,
    block(t('mail.cartLink.sellerTitle'), contactLines(sellerContact)),
    block(t('mail.cartLink.shopTitle'), contactLines(shopContact)),
    '</tr></table></td></tr>',
    '</table></td></tr></table></body></html>',
  ].join('');
  const textLines = lines.map((line) =>
    [
      `- ${line.name}`,
      line.options === '' ? '' : `  ${line.options}`,
      `  ${t('mail.cartLink.lineText', { quantity: line.quantity, unit: line.unit, total: line.total })}`,
    ]
      .filter((part) => part !== '')
      .join('\n'),
  );
  const textContent = [
    t('mail.cartLink.greeting'),
    intro,
    `${t('mail.cartLink.itemsTitle')} :\n${textLines.join('\n')}`,
    [
      discount === null ? '' : `${t('mail.cartLink.discount')} : ${discount}`,
      `${t('mail.cartLink.total')} : ${total}`,
    ]
      .filter((part) => part !== '')
      .join('\n'),
    `${t('mail.cartLink.action')} : ${input.link}`,
    validity,
    t('mail.cartLink.outro'),
    `${t('mail.cartLink.sellerTitle')} :\n${sellerContact.filter((l) => l !== '').join('\n')}`,
    `${t('mail.cartLink.shopTitle')} :\n${shopContact.filter((l) => l !== '').join('\n')}`,
  ].join('\n\n');
  return {
    sender: input.sender,
    to: [{ email: input.to }],
    subject: t('mail.cartLink.subject', { shop, reseller }),
    htmlContent,
    textContent,
    tags: ['cart-link'],
  };
}
