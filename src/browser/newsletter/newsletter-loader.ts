/**
 * Loads the newsletter forms' code when a shopper first reaches for one (focus or submit):
 * pages where nobody subscribes never fetch it. Until then the browser's own validation is
 * off, so the French texts of spec §5 are the ones shown.
 */
type FormModule = typeof import('./newsletter-form.ts');

let loading: Promise<FormModule> | null = null;
const load = () => (loading ??= import('./newsletter-form.ts'));

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-newsletter-form]')) {
  form.noValidate = true;
  form.addEventListener(
    'focusin',
    () => {
      void load().then((m) => {
        m.prepareNewsletterForm(form);
      });
    },
    { once: true },
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void load().then((m) => m.submitNewsletterForm(form));
  });
}
