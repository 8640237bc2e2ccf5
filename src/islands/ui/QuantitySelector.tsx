/**
 * Quantity selector: − and + buttons around a number field. Shows every change at once and
 * reports it through `onCommit` only after `debounceMs` without another change (spec §9: the
 * cart quantity is debounced 500 ms), so five clicks make one cart update. When `onCommit`
 * returns a promise (a cart update), the field goes back to `value` once it settles with no
 * newer change pending: a refused update (stock) shows what the cart holds, never the draft.
 */
import { useEffect, useId, useRef, useState } from 'react';

export interface QuantitySelectorProps {
  value: number;
  min?: number;
  max?: number;
  debounceMs?: number;
  disabled?: boolean;
  /** Reports the chosen quantity; a returned promise is waited for (see above). */
  onCommit: (quantity: number) => unknown;
  labels: { quantity: string; decrease: string; increase: string };
}

export function QuantitySelector({
  value,
  min = 1,
  max = 99,
  debounceMs = 500,
  disabled = false,
  onCommit,
  labels,
}: QuantitySelectorProps) {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The latest `value` and the number of the latest change, read when a commit settles.
  const latest = useRef(value);
  latest.current = value;
  const changes = useRef(0);
  const id = useId();

  // A new value from the cart (after the update, or another tab) replaces the draft.
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  useEffect(
    () => () => {
      clearTimeout(timer.current);
    },
    [],
  );

  function change(next: number) {
    const clamped = Math.min(max, Math.max(min, Math.trunc(next)));
    if (!Number.isFinite(clamped)) return;
    setDraft(clamped);
    clearTimeout(timer.current);
    changes.current += 1;
    const change = changes.current;
    timer.current = setTimeout(() => {
      if (clamped === value) return;
      const result = onCommit(clamped);
      if (result instanceof Promise) {
        const settle = () => {
          // A newer change is the shopper's: it stays. Otherwise the cart's quantity shows.
          if (changes.current === change) setDraft(latest.current);
        };
        result.then(settle, settle);
      }
    }, debounceMs);
  }

  const button =
    'inline-flex min-h-11 min-w-11 items-center justify-center text-lg font-semibold text-primary-900 hover:bg-neutral-100 disabled:cursor-not-allowed disabled:opacity-40';
  return (
    <div className="inline-flex items-center overflow-hidden rounded-control border border-neutral-400">
      <button
        type="button"
        className={button}
        aria-label={labels.decrease}
        aria-controls={id}
        disabled={disabled || draft <= min}
        onClick={() => {
          change(draft - 1);
        }}
      >
        −
      </button>
      <label htmlFor={id} className="sr-only">
        {labels.quantity}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={draft}
        disabled={disabled}
        onChange={(event) => {
          const next = Number.parseInt(event.target.value, 10);
          if (Number.isNaN(next)) return;
          change(next);
        }}
        className="h-11 w-12 [appearance:textfield] border-x border-neutral-300 text-center text-base tabular-nums [&::-webkit-inner-spin-button]:appearance-none"
      />
      <button
        type="button"
        className={button}
        aria-label={labels.increase}
        aria-controls={id}
        disabled={disabled || draft >= max}
        onClick={() => {
          change(draft + 1);
        }}
      >
        +
      </button>
    </div>
  );
}
