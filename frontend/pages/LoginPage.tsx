import { useAtomValue, useStore } from 'jotai';
import { Link, useLocation } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { demoLogin, login } from '../api/auth.ts';
import { FormField } from '../components/FormField.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { type FormErrors, useForm } from '../hooks/useForm.ts';
import { setSessionUser } from '../state/session.ts';
import { siteAtom } from '../state/site.ts';
import { authErrors } from './authErrors.ts';

const DEMO_LOGIN_FAILED = 'Demo login failed';
const CREDENTIAL_ID = 'login-credential-error';

function validateLogin({ email, password }: { email: string; password: string }): FormErrors {
  const found: FormErrors = {};
  if (!email.trim()) found.email = MSG.emailRequired;
  if (!password) found.password = MSG.passwordRequired;
  return found;
}

export function LoginPage() {
  useDocumentTitle('Log In');
  const store = useStore();
  const location = useLocation();
  const { signups } = useAtomValue(siteAtom);
  const { errors, busy, field, onSubmit, run } = useForm({
    initial: { email: '', password: '' },
    validate: validateLogin,
    async submit({ email, password }) {
      // GuestOnly sends the visitor on (back to where they came from) once the session is set.
      setSessionUser(store, await login(email.trim(), password));
    },
    failed: authErrors,
  });

  function onDemo() {
    void run(
      async () => setSessionUser(store, await demoLogin()),
      () => ({ demo: DEMO_LOGIN_FAILED }),
    );
  }

  return (
    <div className="form-page">
      <form className="form-card" onSubmit={onSubmit} noValidate aria-labelledby="login-title">
        <h1 id="login-title">Log In</h1>
        {errors.server ? (
          <p className="form-error" role="alert">
            {errors.server}
          </p>
        ) : null}
        <FormField label="Email" type="email" autoComplete="email" maxLength={LIMITS.email} {...field('email')} error={errors.email} />
        <FormField
          label="Password"
          type="password"
          autoComplete="current-password"
          maxLength={LIMITS.passwordMax}
          {...field('password')}
          error={errors.password}
          // Wrong credentials: the password is the field to try again (it gets the focus).
          invalidBy={errors.credential ? CREDENTIAL_ID : undefined}
        />
        {errors.credential ? (
          <p className="form-error" role="alert" id={CREDENTIAL_ID}>
            {errors.credential}
          </p>
        ) : null}
        <p className="form-card__alt">
          <Link to="/forgot-password">Forgot password?</Link>
        </p>
        <button type="submit" className="button button--block" disabled={busy}>
          Log In
        </button>
        <button type="button" className="button button--secondary button--block" onClick={onDemo} disabled={busy}>
          Log in as Demo User
        </button>
        {errors.demo ? (
          <p className="form-error" role="alert">
            {errors.demo}
          </p>
        ) : null}
        {/* Invite-only and closed sites: the way in is an invite link, not this page (docs/site-access.md). */}
        {signups === 'open' ? (
          <p className="form-card__alt">
            New here?{' '}
            <Link to="/signup" state={location.state} replace>
              Sign up
            </Link>
          </p>
        ) : null}
      </form>
    </div>
  );
}
