/**
 * The product gallery's full-screen viewer: PhotoSwipe v5 over every picture of
 * the gallery, in order, opening on the tapped one. It swipes (and arrows) from picture to
 * picture, pinches, double-taps and wheels to zoom, shows each picture whole at its widest
 * encoded size (`zoom-slides.ts`), and closes with Escape, the close button or a swipe down.
 * On close the gallery shows the picture last viewed and its zoom link gets the focus back.
 *
 * Loaded by ProductGallery's script on the first zoom tap only (a dynamic import, with
 * PhotoSwipe's CSS as a file of the bundle: a `<link>` of `'self'`), so the product page's
 * up-front JavaScript does not carry it. PhotoSwipe styles its elements through the CSSOM,
 * which the shop's CSP allows. Its texts are the page's (`ZOOM_MESSAGES`, fr.json).
 */
import PhotoSwipe from 'photoswipe';
import 'photoswipe/style.css';
import { createTranslator, pageMessages } from '../../lib/i18n/translate.ts';
import { GALLERY_IMAGE } from '../../lib/picture-variants.ts';
import { showGallerySlide } from './gallery-slide.ts';
import { widestVariant, ZOOM_MESSAGES_ID, zoomSlides, zoomSource } from './zoom-slides.ts';

/** Zoom links of a gallery, in order (ProductGallery's `a[data-zoom]`). */
function zoomLinks(gallery: HTMLElement): HTMLAnchorElement[] {
  return [...gallery.querySelectorAll<HTMLAnchorElement>('a[data-zoom]')];
}

/** Opens the viewer on `link`'s picture; resolves once it is closed. */
export function openZoom(gallery: HTMLElement, link: HTMLAnchorElement): Promise<void> {
  const t = createTranslator(pageMessages(ZOOM_MESSAGES_ID));
  const links = zoomLinks(gallery);
  const read = links.map((element) => ({
    href: element.getAttribute('href'),
    width: element.dataset.zoomWidth,
    height: element.dataset.zoomHeight,
    alt: element.querySelector('img')?.getAttribute('alt'),
  }));
  const { slides, index, positions } = zoomSlides(
    read,
    links.indexOf(link),
    widestVariant(GALLERY_IMAGE),
  );
  if (slides.length === 0) {
    const fallback = zoomSource(link.getAttribute('href'));
    if (fallback !== null) window.location.assign(fallback);
    return Promise.resolve();
  }

  const pswp = new PhotoSwipe({
    dataSource: slides,
    index,
    showHideAnimationType: 'fade',
    closeOnVerticalDrag: true,
    bgOpacity: 1,
    counter: false,
    closeTitle: t('common.close'),
    zoomTitle: t('product.zoomIn'),
    arrowPrevTitle: t('product.zoomPrevious'),
    arrowNextTitle: t('product.zoomNext'),
    errorMsg: t('product.zoomError'),
  });
  pswp.on('uiRegister', () => {
    // The counter as the gallery's own words ("Image 2 sur 3"), not PhotoSwipe's "2 / 3".
    pswp.ui?.registerElement({
      name: 'imageCounter',
      className: 'pswp__counter',
      order: 5,
      appendTo: 'bar',
      onInit: (element) => {
        element.setAttribute('aria-live', 'polite');
        const update = () => {
          element.textContent = t('product.showImage', {
            index: pswp.currIndex + 1,
            total: pswp.getNumItems(),
          });
        };
        pswp.on('change', update);
        update();
      },
    });
  });
  // Marks the viewer open once its fade in is over: PhotoSwipe ignores keys and gestures
  // until then (the browser tests wait for it).
  pswp.on('openingAnimationEnd', () => {
    pswp.element?.setAttribute('data-opened', '');
  });
  pswp.on('firstUpdate', () => {
    pswp.element?.setAttribute('aria-modal', 'true');
    pswp.element?.setAttribute('aria-label', t('product.zoomDialog'));
  });
  return new Promise((resolve) => {
    pswp.on('destroy', () => {
      // The gallery follows the viewer: it shows the picture last viewed, focused.
      const position = positions[pswp.currIndex] ?? links.indexOf(link);
      showGallerySlide(gallery, position);
      (links[position] ?? link).focus({ preventScroll: true });
      resolve();
    });
    pswp.init();
  });
}
