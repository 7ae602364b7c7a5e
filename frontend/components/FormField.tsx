import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

type Props = {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  multiline?: boolean;
  rows?: number;
} & Omit<InputHTMLAttributes<HTMLInputElement & HTMLTextAreaElement>, 'id'>;

/** A labelled input (or textarea) with its error message under it, tied by aria-describedby. */
export function FormField({ label, error, hint, multiline, rows = 4, ...input }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const shared = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    className: `field__input${error ? ' field__input--invalid' : ''}`,
  };
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {multiline ? <textarea rows={rows} {...input} {...shared} /> : <input {...input} {...shared} />}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
