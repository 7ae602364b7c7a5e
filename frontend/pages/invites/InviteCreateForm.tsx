import { useId } from 'react';
import type { Invite } from '../../../contract/invites.ts';
import { INVITE_RULES } from '../../../contract/invite-rules.ts';
import { createInvite } from '../../api/invites.ts';
import { isApiError } from '../../api/client.ts';
import { FormField } from '../../components/FormField.tsx';
import { type FormErrors, useForm } from '../../hooks/useForm.ts';

const EXPIRY_CHOICES = [
  { value: '1', label: '1 day' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
] as const;

const USES_PROBLEM = `Choose from 1 to ${INVITE_RULES.usesMax} people.`;

function validate({ uses }: { uses: string }): FormErrors {
  const number = Number(uses);
  return Number.isInteger(number) && number >= 1 && number <= INVITE_RULES.usesMax ? {} : { uses: USES_PROBLEM };
}

/** How many people a new link may sign up, and for how long; hands the made invite up. */
export function InviteCreateForm({ onCreated }: { onCreated: (invite: Invite) => void }) {
  const expiryId = useId();
  const form = useForm({
    initial: { uses: '1', expiresInDays: String(INVITE_RULES.daysDefault) },
    validate,
    async submit({ uses, expiresInDays }) {
      // The parent starts a fresh form (a new key): useForm stays busy after a success.
      onCreated(await createInvite({ uses: Number(uses), expiresInDays: Number(expiresInDays) }));
    },
    failed: (error) => {
      if (isApiError(error)) return Object.keys(error.body.fields).length ? error.body.fields : { form: error.body.message };
      return { form: 'Something went wrong.' };
    },
  });

  return (
    <form className="token-form" onSubmit={form.onSubmit} noValidate aria-labelledby="new-invite-title">
      <h2 id="new-invite-title">New invite link</h2>
      <FormField
        label="People it can sign up"
        type="number"
        inputMode="numeric"
        min={1}
        max={INVITE_RULES.usesMax}
        {...form.field('uses')}
        error={form.errors.uses}
        hint="Each sign-up uses one; the link stops working when none are left."
      />
      <div className="field">
        <label htmlFor={expiryId} className="field__label">
          Expires in
        </label>
        <select id={expiryId} className="field__input" value={form.values.expiresInDays} onChange={(event) => form.set('expiresInDays', event.target.value)}>
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      {form.errors.form || form.errors.expiresInDays ? (
        <p className="form-error" role="alert">
          {form.errors.form ?? form.errors.expiresInDays}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={form.busy}>
        Create invite link
      </button>
    </form>
  );
}
