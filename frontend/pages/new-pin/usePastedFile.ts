import { useEffect, useRef } from 'react';
import { pickFile } from './files.ts';

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type !== 'file');
}

/**
 * A file pasted anywhere on the page (Ctrl/Cmd+V) goes to `onFile`. Pasting into a text field
 * still pastes text when the clipboard has some (a copied web image often comes with its address
 * or HTML): only a clipboard with a file and no text is taken there.
 */
export function usePastedFile(onFile: (file: File) => void): void {
  const latest = useRef(onFile);
  latest.current = onFile;
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const data = event.clipboardData;
      const file = pickFile(data?.files) ?? pickFile(Array.from(data?.items ?? []).flatMap((item) => (item.kind === 'file' ? [item.getAsFile()].filter((f): f is File => f !== null) : [])));
      if (!file) return;
      if (isTextField(event.target) && Array.from(data?.types ?? []).includes('text/plain')) return;
      event.preventDefault();
      latest.current(file);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, []);
}
