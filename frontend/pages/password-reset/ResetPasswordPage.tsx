import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LIMITS } from '../../../contract/limits.ts';
import { MSG } from '../../../contract/messages.ts';
import { confirmPasswordReset } from '../../api/account.ts';
import { FormField } from '../../components/FormField.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { type FormErrors, useForm } from '../../hooks/useForm.ts';
import { authErrors } from '../authErrors.ts';
import '../settings/settings.css';
import { CONFIRM_MISMATCH } from '../settings/PasswordSection.tsx';

function validate({ password, confirmPassword }: { password: string; confirmPassword: string }): FormErrors {
  const found: FormErrors = {};
  if (!password) found.password = MSG.passwordRequired;
  else if (password.length < LIMITS.passwordMin) found.password = MSG.passwordLength;
  if (confirmPassword !== password) found.confirmPassword = CONFIRM_MISMATCH;
  return found;
}

/** The mailed link's page (/reset-password?token=…): a new password; then every session has ended. */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  const { errors, busy, field, onSubmit } = useForm({
    initial: { password: '', confirmPassword: '' },
    validate,
    async submit({ password }) {
      await confirmPasswordReset(token, password);
      setDone(true);
    },
    failed: authErrors,
  });

  if (done) {
    return (
      <div className="form-page">
        <section className="form-card" aria-labelledby="reset-title">
          <h1 id="reset-title">Password changed</h1>
          <p role="status">Your new password is set, and you are signed out everywhere. Log in with it now.</p>
          <Link to="/login" className="button button--block">
            Log In
          </Link>
        </section>
      </div>
    );
  }

  // A link's token problem (used, expired, mistyped) is said once, with the way out.
  const linkProblem = errors.token ?? (token ? undefined : 'This page needs the link from the reset email.');
  return (
    <div className="form-page">
      <form className="form-card" onSubmit={onSubmit} noValidate aria-labelledby="reset-title">
        <h1 id="reset-title">Choose a new password</h1>
        {linkProblem ? (
          <p className="form-error" role="alert">
            {linkProblem} <Link to="/forgot-password">Ask for a new link</Link>
          </p>
        ) : null}
        {errors.server ? (
          <p className="form-error" role="alert">
            {errors.server}
          </p>
        ) : null}
        <FormField
          label="New password"
          type="password"
          autoComplete="new-password"
          maxLength={LIMITS.passwordMax}
          hint={`At least ${LIMITS.passwordMin} characters.`}
          {...field('password')}
          error={errors.password}
        />
        <FormField label="Confirm new password" type="password" autoComplete="new-password" maxLength={LIMITS.passwordMax} {...field('confirmPassword')} error={errors.confirmPassword} />
        <button type="submit" className="button button--block" disabled={busy || !token}>
          {busy ? 'Saving…' : 'Set new password'}
        </button>
      </form>
    </div>
  );
}
