import { useEffect, useState, type FormEvent } from 'react';

/** Messages by field name (or another key the page shows apart, such as `server`). */
export type FormErrors = Record<string, string>;

interface FormOptions<V extends Record<string, string>> {
  initial: V;
  /** The client's own checks (docs/product.md §5): when it finds anything, that is shown and nothing is sent. */
  validate: (values: V) => FormErrors;
  /** Sends the form. On success the page moves on (navigates, or the session changes), so it stays busy. */
  submit: (values: V) => Promise<void>;
  /** What a failed send shows; the form is usable again afterwards. */
  failed: (error: unknown) => FormErrors;
}

/**
 * The state every form page shares: its values, the messages to show, and `busy` while a call is
 * out (its buttons are disabled then). `field(name)` gives a FormField its name, value and
 * onChange; where a message shows is the page's choice.
 */
export function useForm<V extends Record<string, string>>({ initial, validate, submit, failed }: FormOptions<V>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);

  /** Runs a call with the form busy and its messages cleared; a failure shows `onFailure`'s messages. */
  async function run(call: () => Promise<void>, onFailure: (error: unknown) => FormErrors): Promise<void> {
    // The button that sent is disabled while busy, and a disabled element loses the focus to
    // <body>: after a refusal (a wrong password) the focus comes back into the form.
    const sender = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setErrors({});
    setBusy(true);
    try {
      await call();
    } catch (error) {
      setErrors(onFailure(error));
      setBusy(false);
      setRefocusFrom(sender);
    }
  }

  // Once the refusal is on screen (fields marked, buttons enabled again): see refocus.
  const [refocusFrom, setRefocusFrom] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!refocusFrom) return;
    refocus(refocusFrom);
    setRefocusFrom(null);
  }, [refocusFrom]);

  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (!submitNow()) focusFirstInvalid(event.currentTarget);
  }

  /** Checks and sends, as a submit does (after a page's own confirmation); false when refused. */
  function submitNow(): boolean {
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return false;
    void run(() => submit(values), failed);
    return true;
  }

  /** Sets a value from the page's own code (a field filled in for the user). */
  function set(name: keyof V & string, value: string | ((current: string) => string)): void {
    setValues((current) => ({ ...current, [name]: typeof value === 'function' ? value(current[name] ?? '') : value }));
  }

  function field(name: keyof V & string) {
    return {
      name,
      value: values[name],
      onChange: (event: { target: { value: string } }) => {
        const next = { ...values, [name]: event.target.value };
        setValues(next);
        // A field's message goes as soon as the field is fixed (the same checks as on submit).
        if (errors[name] !== undefined) setErrors((current) => recheck(current, name, validate(next)[name]));
      },
    };
  }

  return { values, errors, busy, field, set, onSubmit, submitNow, run };
}

/** `errors` with `name`'s message replaced by `message` (or removed when there is none now). */
function recheck(errors: FormErrors, name: string, message: string | undefined): FormErrors {
  const { [name]: _old, ...rest } = errors;
  return message === undefined ? rest : { ...rest, [name]: message };
}

/**
 * After a refused call, once it is on screen: unless the reader has moved on, the first field with
 * a message gets the focus, else the control that sent (enabled again).
 */
function refocus(sender: HTMLElement): void {
  const active = document.activeElement;
  if (active && active !== document.body && active !== sender) return;
  const invalid = sender.closest('form')?.querySelector<HTMLElement>('[aria-invalid="true"]');
  (invalid ?? sender).focus();
}

/** After a refused submit, the first field with a message gets the focus (once React has marked it). */
function focusFirstInvalid(form: HTMLFormElement): void {
  setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
}
