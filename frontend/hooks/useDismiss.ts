import { useEffect, type RefObject } from 'react';

/**
 * Calls `onClose` on a pointer press outside `ref` or on Escape, while `open`. Escape also moves
 * focus back to `returnFocus` (the menu's button), so keyboard users stay where they were.
 */
export function useDismiss(ref: RefObject<HTMLElement | null>, open: boolean, onClose: () => void, returnFocus?: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!open) return;
    function onPointer(event: MouseEvent | TouchEvent) {
      const el = ref.current;
      if (el && event.target instanceof Node && !el.contains(event.target)) onClose();
    }
    function onKey(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      onClose();
      returnFocus?.current?.focus();
    }
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('touchstart', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('touchstart', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [ref, open, onClose, returnFocus]);
}
