// Keyboard behaviour every dialog shares, installed once for the whole app (every dialog is a react-bootstrap Modal):
// - Tab and Shift+Tab wrap inside the open dialog: the Modal only pulls focus back after it has left, so Tab from its
//   last control would reach the page behind it (or the browser) first;
// - on closing, focus goes back to what opened the dialog even when that was an item of a menu that has closed since
//   (the Modal restores focus to the item, which no longer exists): then the menu's toggle gets it.

const FOCUSABLE = [
  'a[href]', 'area[href]', 'button:not([disabled])', 'input:not([disabled]):not([type="hidden"])', 'select:not([disabled])',
  'textarea:not([disabled])', 'iframe', '[contenteditable="true"]', '[tabindex]:not([tabindex="-1"])',
].join(',');

function openDialog(): HTMLElement | null {
  const open = Array.from(document.querySelectorAll<HTMLElement>('.modal.show[role="dialog"]'));
  return open.at(-1) ?? null;
}

function focusables(dialog: HTMLElement): HTMLElement[] {
  return Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[inert]'),
  );
}

function onKeyDown(event: KeyboardEvent): void {
  if (event.key !== 'Tab' || event.defaultPrevented) return;
  const dialog = openDialog();
  if (!dialog) return;
  const items = focusables(dialog);
  const active = document.activeElement as HTMLElement | null;
  if (items.length === 0) {
    event.preventDefault();
    dialog.focus();
    return;
  }
  const first = items[0]!;
  const last = items.at(-1)!;
  const inside = active !== null && dialog.contains(active);
  if (event.shiftKey && (!inside || active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}

/** The control a dialog should give the focus back to: a menu item stands for its menu's toggle. */
function openerOf(el: Element): HTMLElement | null {
  const menu = el.closest('.dropdown-menu');
  if (menu) return menu.parentElement?.querySelector<HTMLElement>('.dropdown-toggle, [aria-haspopup]') ?? null;
  return el as HTMLElement;
}

let opener: HTMLElement | null = null;
let wasOpen = false;

function onFocusIn(event: FocusEvent): void {
  const target = event.target as Element | null;
  if (!target || target.closest('.modal') || target === document.body) return;
  opener = openerOf(target);
}

function onDialogsChanged(): void {
  const isOpen = document.body.hasAttribute('data-rr-ui-modal-open');
  if (wasOpen && !isOpen) {
    const back = opener;
    // After the Modal's own restore: only when it had nothing left to restore to.
    setTimeout(() => {
      const active = document.activeElement;
      if ((!active || active === document.body) && back?.isConnected) back.focus();
    }, 0);
  }
  wasOpen = isOpen;
}

let installed = false;

export function installDialogFocus(): void {
  if (installed || typeof document === 'undefined') return;
  installed = true;
  document.addEventListener('keydown', onKeyDown);
  document.addEventListener('focusin', onFocusIn);
  new MutationObserver(onDialogsChanged).observe(document.body, { attributes: true, attributeFilter: ['data-rr-ui-modal-open'] });
}
