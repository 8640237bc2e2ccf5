/**
 * The search panel (spec §2 search panel, §4 search UI state, §5 search rule): suggestions of
 * categories and products under the header's search bar, after the 1000 ms debounce of the
 * search store. It takes over the static form of `SearchForm.astro` (ARIA combobox on its
 * input, a listbox of suggestions) and is mounted on the first focus of that input
 * (`mount.tsx`), so pages load none of it up front; without JavaScript the form still sends
 * `?term=` to the results page.
 *
 * - Opens on focus; closes on Escape, a click outside, its "Fermer" button (at its foot: a
 *   word, not a second cross), leaving the page and the opening of the details menu (ui store).
 * - A magnifier (the form's submit button) when the input is empty, a cross that clears and
 *   refocuses when it holds text: the one cross of the search (the browser's own
 *   cancel button is hidden, `.search-input` in components.css, and the panel's close button
 *   is the word "Fermer"). The status line shows only when it says something: no empty band on top.
 * - A term that found nothing is searched corrected by the server: the panel then
 *   says so and shows the corrected term's suggestions.
 * - Arrows move through the suggestions, Enter opens the active one, else the results page
 *   `/resultats-de-recherche/{term}` when the trimmed term is not empty.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { localPath } from '../../lib/commerce/redirect-target.ts';
import { searchResultsPath, type SearchProductView } from '../../lib/commerce/search.ts';
import { errorText, GENERIC_ERROR_KEY, type Translate } from '../../lib/i18n/translate.ts';
import { $search, $searchErrors, clearSearch, setSearchInput } from '../../lib/stores/search.ts';
import { $searchOpen, closeSearch, openSearch } from '../../lib/stores/ui.ts';
import { PriceTag } from '../ui/PriceTag.tsx';
import { CloseIcon, Thumbnail } from '../ui/Thumbnail.tsx';

export interface SearchPanelProps {
  form: HTMLFormElement;
  input: HTMLInputElement;
  t: Translate;
}

interface Option {
  id: string;
  href: string;
}

export function SearchPanel({ form, input, t }: SearchPanelProps) {
  const search = useStore($search);
  const open = useStore($searchOpen);
  const error = useStore($searchErrors).search;
  const [text, setText] = useState(input.value);
  // The active option belongs to the suggestions it was chosen in: new ones start with none.
  const [cursor, setCursor] = useState({ search, index: -1 });
  const active = cursor.search === search ? cursor.index : -1;
  const baseId = useId();
  const listboxId = `${baseId}-listbox`;

  const showing = search.status === 'done' && search.term !== '';
  const options: Option[] = showing
    ? [
        ...search.categories.map((c, i) => ({ id: `${baseId}-c${i}`, href: c.slug })),
        ...search.products.map((p, i) => ({ id: `${baseId}-p${i}`, href: p.href })),
      ]
    : [];
  const activeOption = active >= 0 ? options[active] : undefined;

  // The input becomes the combobox (WAI-ARIA APG "combobox with listbox popup").
  useEffect(() => {
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', listboxId);
    // Enter on an empty term does nothing, instead of the browser's own (English) bubble.
    disableNativeValidation(form);
  }, [form, input, listboxId]);
  useEffect(() => {
    input.setAttribute('aria-expanded', String(open));
    if (activeOption) input.setAttribute('aria-activedescendant', activeOption.id);
    else input.removeAttribute('aria-activedescendant');
  }, [input, open, activeOption]);

  // The magnifier (submit) shows when the input is empty, the cross otherwise (spec §4).
  useEffect(() => {
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) submit.hidden = text.trim() !== '';
  }, [form, text]);

  // Every navigation of the panel goes through the one redirect-target check (suggestion
  // paths are built from upstream category urls): a local path of the shop, else nowhere.
  const go = useCallback((href: string) => {
    const path = localPath(href);
    closeSearch();
    if (path !== null) window.location.assign(path);
  }, []);

  useEffect(() => {
    const onInput = () => {
      setText(input.value);
      setSearchInput(input.value);
      openSearch();
    };
    const onFocus = () => {
      openSearch();
    };
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault();
      const path = searchResultsPath(input.value);
      if (path !== null) go(path);
    };
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !form.contains(event.target)) closeSearch();
    };
    const onPageHide = () => {
      closeSearch();
    };
    input.addEventListener('input', onInput);
    input.addEventListener('focus', onFocus);
    // Focused already (after Escape): a click opens it again.
    input.addEventListener('click', onFocus);
    form.addEventListener('submit', onSubmit);
    document.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('pagehide', onPageHide);
    // Typed before this code arrived: search it now.
    if (input.value.trim() !== '') setSearchInput(input.value);
    return () => {
      input.removeEventListener('input', onInput);
      input.removeEventListener('focus', onFocus);
      input.removeEventListener('click', onFocus);
      form.removeEventListener('submit', onSubmit);
      document.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, [form, input, go]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        if ($searchOpen.get()) {
          event.preventDefault();
          closeSearch();
        }
        return;
      }
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        openSearch();
        if (options.length === 0) return;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        // From the input (-1) through the options and back to the input.
        const next = active + step;
        const index = next < -1 ? options.length - 1 : next >= options.length ? -1 : next;
        setCursor({ search, index });
        return;
      }
      if (event.key === 'Enter' && activeOption && $searchOpen.get()) {
        event.preventDefault();
        go(activeOption.href);
      }
    };
    input.addEventListener('keydown', onKeyDown);
    return () => {
      input.removeEventListener('keydown', onKeyDown);
    };
  }, [input, search, active, options.length, activeOption, go]);

  // Keep the active option in view.
  useEffect(() => {
    if (activeOption)
      document.getElementById(activeOption.id)?.scrollIntoView({ block: 'nearest' });
  }, [activeOption]);

  const clear = () => {
    emptyInput(input);
    setText('');
    clearSearch();
    input.focus();
  };

  const resultsPath = searchResultsPath(text);
  const corrected = showing ? search.correctedTerm : null;
  const status: ReactNode =
    search.status === 'idle' ? (
      t("You haven't searched for items yet")
    ) : search.status === 'loading' ? (
      t('common.loading')
    ) : search.status === 'error' ? (
      errorText(t, error ?? GENERIC_ERROR_KEY)
    ) : showing && search.products.length === 0 ? (
      t('No products found matching your search criteria.')
    ) : corrected !== null ? (
      // A typo still gives suggestions: they are the corrected term's.
      <span className="flex flex-col">
        <span>{t('search.noResultsFor', { term: search.term })}</span>
        <strong className="font-semibold text-neutral-900">
          {t('search.suggestionsFor', { term: corrected })}
        </strong>
      </span>
    ) : null;
  const optionClass = (index: number) =>
    `flex items-center gap-3 rounded-control px-3 py-2 text-sm text-neutral-900 hover:bg-neutral-100 ${
      index === active ? 'bg-neutral-100 outline-2 outline-primary-600' : ''
    }`;

  return (
    <>
      {text.trim() !== '' && (
        <button
          type="button"
          onClick={clear}
          className="absolute inset-y-1 end-1 inline-flex w-9 items-center justify-center rounded-full text-primary-800 hover:bg-neutral-200"
        >
          <CloseIcon />
          <span className="sr-only">{t('search.clear')}</span>
        </button>
      )}
      <div
        hidden={!open}
        className="absolute inset-x-0 top-full z-40 mt-2 max-h-[min(70vh,36rem)] overflow-y-auto rounded-card border border-neutral-200 bg-white p-4 text-start shadow-xl"
        data-search-panel
      >
        {/* One status line, only when it says something: no empty band above the suggestions. */}
        <p
          className={status === null ? 'sr-only' : 'mb-3 text-sm text-neutral-700'}
          aria-live="polite"
          aria-busy={search.status === 'loading'}
          data-search-status
        >
          {status}
        </p>
        <div
          id={listboxId}
          role="listbox"
          aria-label={t('search.suggestions')}
          className="flex flex-col gap-4"
        >
          {showing && search.categories.length > 0 && (
            <OptionGroup id={`${baseId}-cats`} label={t('search.categories')}>
              {search.categories.map((category, i) => (
                <a
                  key={category.slug}
                  id={`${baseId}-c${i}`}
                  role="option"
                  aria-selected={i === active}
                  tabIndex={-1}
                  href={category.slug}
                  className={optionClass(i)}
                  data-search-category
                >
                  {category.label}
                </a>
              ))}
            </OptionGroup>
          )}
          {showing && search.products.length > 0 && (
            <OptionGroup id={`${baseId}-products`} label={t('search.products')}>
              {search.products.map((product, i) => {
                const index = search.categories.length + i;
                return (
                  <ProductOption
                    key={product.id}
                    id={`${baseId}-p${i}`}
                    product={product}
                    selected={index === active}
                    className={optionClass(index)}
                    t={t}
                  />
                );
              })}
            </OptionGroup>
          )}
        </div>
        {/* The spec's close button, a word at the panel's foot: the input's cross is the one
            "×" of the search, and no button sits in an empty band on top. */}
        <div className="mt-3 flex items-center justify-between gap-4">
          {showing && search.products.length > 0 && resultsPath !== null ? (
            <a
              href={resultsPath}
              className="inline-block text-sm font-semibold text-primary-700 underline underline-offset-4"
            >
              {t('search.seeAll')}
            </a>
          ) : (
            <span />
          )}
          <button
            type="button"
            onClick={closeSearch}
            className="-me-2 inline-flex min-h-11 items-center rounded-control px-2 text-sm font-semibold text-primary-800 hover:bg-neutral-100"
            data-search-close
          >
            {t('search.close')}
          </button>
        </div>
      </div>
    </>
  );
}

/** A labelled group of the suggestions' listbox (categories, products). */
function OptionGroup({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div role="group" aria-labelledby={id}>
      <p
        id={id}
        role="presentation"
        className="mb-1 text-xs font-semibold tracking-wide text-neutral-600 uppercase"
      >
        {label}
      </p>
      {children}
    </div>
  );
}

function disableNativeValidation(form: HTMLFormElement): void {
  form.noValidate = true;
}

function emptyInput(input: HTMLInputElement): void {
  input.value = '';
}

function ProductOption({
  id,
  product,
  selected,
  className,
  t,
}: {
  id: string;
  product: SearchProductView;
  selected: boolean;
  className: string;
  t: Translate;
}) {
  return (
    <a
      id={id}
      role="option"
      aria-selected={selected}
      tabIndex={-1}
      href={product.href}
      className={className}
      data-search-product
    >
      <Thumbnail src={product.image} size={48} className="size-12" />
      <span className="flex min-w-0 flex-col">
        <span className="truncate font-semibold">{product.name}</span>
        {product.price && (
          <PriceTag price={product.price} from={product.from} t={t} className="text-sm" />
        )}
      </span>
    </a>
  );
}
