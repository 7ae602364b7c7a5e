import { useState } from 'react';
import { Link } from 'react-router';
import { LIMITS } from '../../../contract/limits.ts';
import { MSG } from '../../../contract/messages.ts';
import { requestPasswordReset } from '../../api/account.ts';
import { FormField } from '../../components/FormField.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { type FormErrors, useForm } from '../../hooks/useForm.ts';
import { authErrors } from '../authErrors.ts';
import '../settings/settings.css';

function validate({ email }: { email: string }): FormErrors {
  return email.trim() ? {} : { email: MSG.emailRequired };
}

/** "Forgot password?": asks for the email; the answer is the same whether an account has it or not. */
export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const [sent, setSent] = useState<string | null>(null);
  const { errors, busy, field, onSubmit } = useForm({
    initial: { email: '' },
    validate,
    async submit({ email }) {
      setSent(await requestPasswordReset(email.trim()));
    },
    failed: authErrors,
  });

  if (sent !== null) {
    return (
      <div className="form-page">
        <section className="form-card" aria-labelledby="forgot-title">
          <h1 id="forgot-title">Check your email</h1>
          <p role="status">{sent}</p>
          <p className="form-card__hint">The link works once, for one hour. No email? Check your spam folder, or ask again in a few minutes.</p>
          <p className="form-card__alt">
            <Link to="/login">Back to Log In</Link>
          </p>
        </section>
      </div>
    );
  }

  return (
    <div className="form-page">
      <form className="form-card" onSubmit={onSubmit} noValidate aria-labelledby="forgot-title">
        <h1 id="forgot-title">Forgot your password?</h1>
        <p className="form-card__hint">Enter the email of your account and we will send you a link to choose a new password.</p>
        {errors.server ? (
          <p className="form-error" role="alert">
            {errors.server}
          </p>
        ) : null}
        <FormField label="Email" type="email" autoComplete="email" maxLength={LIMITS.email} {...field('email')} error={errors.email} />
        <button type="submit" className="button button--block" disabled={busy}>
          {busy ? 'Sending…' : 'Send reset link'}
        </button>
        <p className="form-card__alt">
          Remembered it? <Link to="/login">Log in</Link>
        </p>
      </form>
    </div>
  );
}
