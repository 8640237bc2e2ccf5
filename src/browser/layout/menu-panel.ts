/**
 * Binds the menu sidebar (`MenuPanel.astro`, a native popover: the desktop "Menu" button and
 * the mobile bottom bar's "Menu" open it without JavaScript) to the ui store's details menu
 * (spec §4): opening it closes the search, opening a sidebar or the login modal closes it, and
 * a click on an internal link closes the open menus.
 */
import {
  $detailsMenuOpen,
  closeDetailsMenu,
  closeMenus,
  openDetailsMenu,
} from '../../lib/stores/ui.ts';

const panel = document.getElementById('menu-panel');
if (panel !== null) {
  const isOpen = () => panel.matches(':popover-open');
  panel.addEventListener('toggle', (event) => {
    if (event.newState === 'open') openDetailsMenu();
    else closeDetailsMenu();
  });
  $detailsMenuOpen.listen((open) => {
    if (open && !isOpen()) panel.showPopover();
    if (!open && isOpen()) panel.hidePopover();
  });
}

document.addEventListener('click', (event) => {
  if (!(event.target instanceof Element)) return;
  const link = event.target.closest<HTMLAnchorElement>('a[href]');
  if (link !== null && link.origin === window.location.origin) closeMenus();
});
