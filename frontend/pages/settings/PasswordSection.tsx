import { useStore } from 'jotai';
import { ACCOUNT_MSG } from '../../../contract/account-rules.ts';
import { LIMITS } from '../../../contract/limits.ts';
import { MSG } from '../../../contract/messages.ts';
import { changePassword } from '../../api/account.ts';
import { FormField } from '../../components/FormField.tsx';
import { type FormErrors, useForm } from '../../hooks/useForm.ts';
import { showToast } from '../../state/toasts.ts';
import { authErrors } from '../authErrors.ts';

export const CONFIRM_MISMATCH = 'The two new passwords are not the same.';

type Values = { currentPassword: string; newPassword: string; confirmPassword: string };

function validate(values: Values): FormErrors {
  const found: FormErrors = {};
  if (!values.currentPassword) found.currentPassword = ACCOUNT_MSG.currentPasswordRequired;
  if (!values.newPassword) found.newPassword = MSG.passwordRequired;
  else if (values.newPassword.length < LIMITS.passwordMin) found.newPassword = MSG.passwordLength;
  if (values.confirmPassword !== values.newPassword) found.confirmPassword = CONFIRM_MISMATCH;
  return found;
}

/** A new password: the account's other sessions end (the server ends them; `onChanged` refreshes the list). */
export function PasswordSection({ onChanged }: { onChanged: () => void }) {
  const store = useStore();
  const { errors, busy, field, onSubmit } = useForm({
    initial: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate,
    async submit(values) {
      await changePassword(values.currentPassword, values.newPassword);
      showToast(store, 'Password changed. You are signed out everywhere else.');
      onChanged();
    },
    failed: authErrors,
  });

  return (
    <section className="settings-card" aria-labelledby="settings-password-title">
      <h2 id="settings-password-title">Password</h2>
      <p className="settings-card__about">Changing it signs you out on every other device.</p>
      <form onSubmit={onSubmit} noValidate className="settings-card__form">
        {errors.server ? (
          <p className="form-error" role="alert">
            {errors.server}
          </p>
        ) : null}
        <FormField label="Current password" type="password" autoComplete="current-password" maxLength={LIMITS.passwordMax} {...field('currentPassword')} error={errors.currentPassword} />
        <FormField
          label="New password"
          type="password"
          autoComplete="new-password"
          maxLength={LIMITS.passwordMax}
          hint={`At least ${LIMITS.passwordMin} characters.`}
          {...field('newPassword')}
          error={errors.newPassword}
        />
        <FormField label="Confirm new password" type="password" autoComplete="new-password" maxLength={LIMITS.passwordMax} {...field('confirmPassword')} error={errors.confirmPassword} />
        <button type="submit" className="button settings-card__submit" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
