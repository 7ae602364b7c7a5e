import { useAtomValue, useStore } from 'jotai';
import { Link, useLocation, useSearchParams } from 'react-router';
import { INVITE_RULES } from '../../contract/invite-rules.ts';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { signup } from '../api/auth.ts';
import { FormField } from '../components/FormField.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { type FormErrors, useForm } from '../hooks/useForm.ts';
import { setSessionUser } from '../state/session.ts';
import { siteAtom } from '../state/site.ts';
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

/** The log-in link under the form, and under the page that says sign-ups are not open. */
function LogInInstead() {
  const location = useLocation();
  return (
    <p className="form-card__alt">
      Already have an account?{' '}
      <Link to="/login" state={location.state} replace>
        Log in
      </Link>
    </p>
  );
}

/** Sign-ups closed, or invite-only without an invite: the page says so instead of a form no one could send. */
function NoSignUp({ message }: { message: string }) {
  return (
    <div className="form-page">
      <section className="form-card" aria-labelledby="signup-title">
        <h1 id="signup-title">Sign Up</h1>
        <p className="notice" role="status">
          {message}
        </p>
        <LogInInstead />
      </section>
    </div>
  );
}

export function SignupPage() {
  useDocumentTitle('Sign Up');
  const { signups } = useAtomValue(siteAtom);
  // An invite link opens /signup?invite=<code> (docs/site-access.md).
  const invite = useSearchParams()[0].get(INVITE_RULES.param)?.trim() ?? '';
  if (signups === 'closed') return <NoSignUp message={MSG.signupsClosed} />;
  if (signups === 'invite' && !invite) return <NoSignUp message={MSG.inviteRequired} />;
  return <SignupForm invite={invite} />;
}

function SignupForm({ invite }: { invite: string }) {
  const store = useStore();
  const { errors, busy, field, onSubmit } = useForm({
    initial: { email: '', username: '', password: '', confirmPassword: '' },
    validate: validateSignup,
    async submit({ email, username, password }) {
      // GuestOnly sends the new user on once the session is set.
      setSessionUser(store, await signup({ email: email.trim(), username: username.trim(), password, ...(invite ? { invite } : {}) }));
    },
    failed: authErrors,
  });

  return (
    <div className="form-page">
      <form className="form-card" onSubmit={onSubmit} noValidate aria-labelledby="signup-title">
        <h1 id="signup-title">Sign Up</h1>
        {invite ? <p className="notice">You have been invited to join. Create your account below.</p> : null}
        {errors.invite ? (
          <p className="form-error" role="alert">
            {errors.invite}
          </p>
        ) : null}
        {errors.server ? (
          <p className="form-error" role="alert">
            {errors.server}
          </p>
        ) : null}
        <FormField label="Email" type="email" autoComplete="email" maxLength={LIMITS.email} {...field('email')} error={errors.email} />
        <FormField label="Username" autoComplete="username" maxLength={LIMITS.usernameMax} {...field('username')} error={errors.username} />
        <FormField label="Password" type="password" autoComplete="new-password" maxLength={LIMITS.passwordMax} {...field('password')} error={errors.password ?? errors.credential} />
        <FormField label="Confirm Password" type="password" autoComplete="new-password" maxLength={LIMITS.passwordMax} {...field('confirmPassword')} error={errors.confirmPassword} />
        <button type="submit" className="button button--block" disabled={busy}>
          Sign Up
        </button>
        <LogInInstead />
      </form>
    </div>
  );
}
