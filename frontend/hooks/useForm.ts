import { useState, type FormEvent } from 'react';

/** Messages by field name (or another key the page shows apart, such as `server`). */
export type FormErrors = Record<string, string>;

interface FormOptions<V extends Record<string, string>> {
  initial: V;
  /** The client's own checks (SPEC §5): when it finds anything, that is shown and nothing is sent. */
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
    setErrors({});
    setBusy(true);
    try {
      await call();
    } catch (error) {
      setErrors(onFailure(error));
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent): void {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length === 0) void run(() => submit(values), failed);
  }

  /** Sets a value from the page's own code (a field filled in for the user). */
  function set(name: keyof V & string, value: string | ((current: string) => string)): void {
    setValues((current) => ({ ...current, [name]: typeof value === 'function' ? value(current[name] ?? '') : value }));
  }

  function field(name: keyof V & string) {
    return {
      name,
      value: values[name],
      onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
    };
  }

  return { values, errors, busy, field, set, onSubmit, run };
}
