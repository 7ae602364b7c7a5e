import { useStore } from 'jotai';
import { Link, useLocation } from 'react-router';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { signup } from '../api/auth.ts';
import { FormField } from '../components/FormField.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { type FormErrors, useForm } from '../hooks/useForm.ts';
import { setSessionUser } from '../state/session.ts';
import { authErrors } from './authErrors.ts';

const CONFIRM_MISMATCH = 'Confirm Password field must be the same as the Password field';
const CONFIRM_REQUIRED = 'Confirm Password is required.';

function validateSignup(form: { email: string; username: string; password: string; confirmPassword: string }): FormErrors {
  const found: FormErrors = {};
  if (!form.email.trim()) found.email = MSG.emailRequired;
  if (!form.username.trim()) found.username = MSG.usernameRequired;
  if (!form.password) found.password = MSG.passwordRequired;
  if (form.confirmPassword !== form.password) found.confirmPassword = CONFIRM_MISMATCH;
  else if (!form.confirmPassword) found.confirmPassword = CONFIRM_REQUIRED;
  return found;
}

export function SignupPage() {
  useDocumentTitle('Sign Up');
  const store = useStore();
  const location = useLocation();
  const { errors, busy, field, onSubmit } = useForm({
    initial: { email: '', username: '', password: '', confirmPassword: '' },
    validate: validateSignup,
    async submit({ email, username, password }) {
      // GuestOnly sends the new user on once the session is set.
      setSessionUser(store, await signup({ email: email.trim(), username: username.trim(), password }));
    },
    failed: authErrors,
  });

  return (
    <div className="form-page">
      <form className="form-card" onSubmit={onSubmit} noValidate aria-labelledby="signup-title">
        <h1 id="signup-title">Sign Up</h1>
        {errors.server ? <p className="form-error" role="alert">{errors.server}</p> : null}
        <FormField label="Email" type="email" autoComplete="email" maxLength={LIMITS.email} {...field('email')} error={errors.email} />
        <FormField label="Username" autoComplete="username" maxLength={LIMITS.usernameMax} {...field('username')} error={errors.username} />
        <FormField
          label="Password"
          type="password"
          autoComplete="new-password"
          maxLength={LIMITS.passwordMax}
          {...field('password')}
          error={errors.password ?? errors.credential}
        />
        <FormField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          maxLength={LIMITS.passwordMax}
          {...field('confirmPassword')}
          error={errors.confirmPassword}
        />
        <button type="submit" className="button button--block" disabled={busy}>
          Sign Up
        </button>
        <p className="form-card__alt">
          Already have an account?{' '}
          <Link to="/login" state={location.state} replace>
            Log in
          </Link>
        </p>
      </form>
    </div>
  );
}
