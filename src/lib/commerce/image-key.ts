/**
 * A size-independent key of a catalogue picture: its file name without query. BigCommerce
 * serves one picture under several size paths (`/images/800x800/x.jpg`, `/1280x1280/x.jpg`,
 * `stencil/{size}/...`), and a variant's `image_url` names one of the product's pictures.
 */
export function imageKey(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  return path.slice(path.lastIndexOf('/') + 1).toLowerCase();
}
