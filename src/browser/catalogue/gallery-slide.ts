/**
 * Shows one picture of a product gallery (ProductGallery.astro): its radio is checked (from
 * `md` up, CSS shows the checked slide) and, on a phone, where the slides are a strip that
 * scrolls sideways, the strip scrolls to it. Used by the variant picker (a variant's picture)
 * and the zoom viewer (the picture last viewed), in the browser.
 */
export function showGallerySlide(gallery: Element, index: number): void {
  const radio = gallery.querySelectorAll<HTMLInputElement>('input[type="radio"]')[index];
  if (radio) radio.checked = true;
  const slide = gallery.querySelectorAll<HTMLElement>('.slide')[index];
  const strip = slide?.parentElement;
  if (slide && strip && strip.scrollWidth > strip.clientWidth) {
    strip.scrollTo({ left: slide.offsetLeft - strip.clientLeft, behavior: 'instant' });
  }
}
