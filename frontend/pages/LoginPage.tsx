import { useStore } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { demoLogin, login } from '../api/auth.ts';
import { FormField } from '../components/FormField.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { setSessionUser } from '../state/session.ts';
import { authErrors } from './authErrors.ts';

export const DEMO_LOGIN_FAILED = 'Demo login failed';

export function LoginPage() {
  useDocumentTitle('Log In');
  const store = useStore();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!email.trim()) found.email = MSG.emailRequired;
    if (!password) found.password = MSG.passwordRequired;
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      // GuestOnly sends the visitor on (back to where they came from) once the session is set.
      setSessionUser(store, await login(email.trim(), password));
    } catch (error) {
      setErrors(authErrors(error));
      setBusy(false);
    }
  }

  async function onDemo() {
    setErrors({});
    setBusy(true);
    try {
      setSessionUser(store, await demoLogin());
    } catch {
      setErrors({ demo: DEMO_LOGIN_FAILED });
      setBusy(false);
    }
  }

  return (
    <div className="form-page">
      <form className="form-card" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="login-title">
        <h1 id="login-title">Log In</h1>
        {errors.server ? <p className="form-error" role="alert">{errors.server}</p> : null}
        <FormField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          maxLength={LIMITS.email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <FormField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          maxLength={LIMITS.passwordMax}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
        {errors.credential ? <p className="form-error" role="alert">{errors.credential}</p> : null}
        <button type="submit" className="button button--block" disabled={busy}>
          Log In
        </button>
        <button type="button" className="button button--secondary button--block" onClick={() => void onDemo()} disabled={busy}>
          Log in as Demo User
        </button>
        {errors.demo ? <p className="form-error" role="alert">{errors.demo}</p> : null}
        <p className="form-card__alt">
          New here?{' '}
          <Link to="/signup" state={location.state}>
            Sign up
          </Link>
        </p>
      </form>
    </div>
  );
}
