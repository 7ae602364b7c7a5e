import { useStore } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { signup } from '../api/auth.ts';
import { FormField } from '../components/FormField.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { setSessionUser } from '../state/session.ts';
import { authErrors } from './authErrors.ts';

export const CONFIRM_MISMATCH = 'Confirm Password field must be the same as the Password field';
export const CONFIRM_REQUIRED = 'Confirm Password is required.';

export function SignupPage() {
  useDocumentTitle('Sign Up');
  const store = useStore();
  const location = useLocation();
  const [form, setForm] = useState({ email: '', username: '', password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!form.email.trim()) found.email = MSG.emailRequired;
    if (!form.username.trim()) found.username = MSG.usernameRequired;
    if (!form.password) found.password = MSG.passwordRequired;
    if (form.confirmPassword !== form.password) found.confirmPassword = CONFIRM_MISMATCH;
    else if (!form.confirmPassword) found.confirmPassword = CONFIRM_REQUIRED;
    setErrors(found);
    if (Object.keys(found).length) return; // nothing is sent
    setBusy(true);
    try {
      const user = await signup({ email: form.email.trim(), username: form.username.trim(), password: form.password });
      setSessionUser(store, user);
    } catch (error) {
      setErrors(authErrors(error));
      setBusy(false);
    }
  }

  return (
    <div className="form-page">
      <form className="form-card" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="signup-title">
        <h1 id="signup-title">Sign Up</h1>
        {errors.server ? <p className="form-error" role="alert">{errors.server}</p> : null}
        <FormField label="Email" type="email" name="email" autoComplete="email" value={form.email} maxLength={LIMITS.email} onChange={set('email')} error={errors.email} />
        <FormField label="Username" name="username" autoComplete="username" value={form.username} maxLength={LIMITS.usernameMax} onChange={set('username')} error={errors.username} />
        <FormField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          value={form.password}
          maxLength={LIMITS.passwordMax}
          onChange={set('password')}
          error={errors.password ?? errors.credential}
        />
        <FormField
          label="Confirm Password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          value={form.confirmPassword}
          maxLength={LIMITS.passwordMax}
          onChange={set('confirmPassword')}
          error={errors.confirmPassword}
        />
        <button type="submit" className="button button--block" disabled={busy}>
          Sign Up
        </button>
        <p className="form-card__alt">
          Already have an account?{' '}
          <Link to="/login" state={location.state}>
            Log in
          </Link>
        </p>
      </form>
    </div>
  );
}
