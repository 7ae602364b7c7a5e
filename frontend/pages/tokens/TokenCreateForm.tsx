import { useId } from 'react';
import type { TokenCreated, TokenScope } from '../../../contract/tokens.ts';
import { TOKEN_LIMITS, TOKEN_MSG } from '../../../contract/token-rules.ts';
import { createToken } from '../../api/tokens.ts';
import { isApiError } from '../../api/client.ts';
import { FormField } from '../../components/FormField.tsx';
import { type FormErrors, useForm } from '../../hooks/useForm.ts';

const EXPIRY_CHOICES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '', label: 'Never' },
] as const;

const SCOPES: Array<{ value: TokenScope; label: string; hint: string }> = [
  { value: 'write', label: 'Write', hint: 'Save pins, fill boards, favorite and comment (the browser extension needs this).' },
  { value: 'read', label: 'Read', hint: 'Only look: list pins, boards and favorites.' },
];

/** Names a new token, picks its scope and lifetime, and hands the created token (with its secret) up. */
export function TokenCreateForm({ onCreated }: { onCreated: (created: TokenCreated) => void }) {
  const scopeName = useId();
  const expiryId = useId();
  const form = useForm({
    initial: { name: '', scope: 'write', expiresInDays: '90' },
    validate: ({ name }): FormErrors => (name.trim() ? {} : { name: TOKEN_MSG.nameRequired }),
    async submit({ name, scope, expiresInDays }) {
      const created = await createToken({
        name: name.trim(),
        scope: scope as TokenScope,
        ...(expiresInDays ? { expiresInDays: Number(expiresInDays) } : {}),
      });
      // The parent shows the secret and starts a fresh form (a new key): useForm stays busy after a success.
      onCreated(created);
    },
    failed: (error) => {
      if (isApiError(error)) return Object.keys(error.body.fields).length ? error.body.fields : { form: error.body.message };
      return { form: 'Something went wrong.' };
    },
  });

  return (
    <form className="token-form" onSubmit={form.onSubmit} noValidate aria-labelledby="new-token-title">
      <h2 id="new-token-title">Create a token</h2>
      <FormField
        label="Name"
        placeholder="e.g. Laptop script, Browser extension"
        maxLength={TOKEN_LIMITS.name}
        {...form.field('name')}
        error={form.errors.name}
        hint="So you know later what uses it."
      />
      <fieldset className="token-form__scopes">
        <legend className="field__label">Access</legend>
        {SCOPES.map((scope) => (
          <label key={scope.value} className="token-form__scope">
            <input type="radio" name={scopeName} value={scope.value} checked={form.values.scope === scope.value} onChange={() => form.set('scope', scope.value)} />
            <span>
              <strong>{scope.label}</strong>
              <span className="field__hint">{scope.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={expiryId} className="field__label">
          Expires
        </label>
        <select id={expiryId} className="field__input" value={form.values.expiresInDays} onChange={(event) => form.set('expiresInDays', event.target.value)}>
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice.label} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      {form.errors.form || form.errors.scope || form.errors.expiresInDays ? (
        <p className="form-error" role="alert">
          {form.errors.form ?? form.errors.scope ?? form.errors.expiresInDays}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={form.busy}>
        Create token
      </button>
    </form>
  );
}
