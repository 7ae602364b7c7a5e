import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

type Props = {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  multiline?: boolean;
  rows?: number;
  /** Marks the field invalid, described by a message shown elsewhere (a form's list of problems). */
  invalidBy?: string | undefined;
  ref?: Ref<HTMLInputElement & HTMLTextAreaElement>;
} & Omit<InputHTMLAttributes<HTMLInputElement & HTMLTextAreaElement>, 'id'>;

/** A labelled input (or textarea) with its error message under it, tied by aria-describedby. */
export function FormField({ label, error, hint, multiline, rows = 4, invalidBy, ref, ...input }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : '', invalidBy ?? ''].filter(Boolean).join(' ') || undefined;
  const invalid = Boolean(error || invalidBy);
  const shared = {
    id,
    ref,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': describedBy,
    className: `field__input${invalid ? ' field__input--invalid' : ''}`,
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
