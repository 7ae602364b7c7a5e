import { useStore } from 'jotai';
import { ACCOUNT_MSG } from '../../../contract/account-rules.ts';
import { LIMITS } from '../../../contract/limits.ts';
import { MSG } from '../../../contract/messages.ts';
import type { User } from '../../../contract/users.ts';
import { updateAccount } from '../../api/account.ts';
import { FormField } from '../../components/FormField.tsx';
import { type FormErrors, useForm } from '../../hooks/useForm.ts';
import { setSessionUser } from '../../state/session.ts';
import { showToast } from '../../state/toasts.ts';
import { authErrors } from '../authErrors.ts';

type Values = { username: string; email: string; currentPassword: string };

function validate(user: User) {
  return (values: Values): FormErrors => {
    const found: FormErrors = {};
    if (!values.username.trim()) found.username = MSG.usernameRequired;
    if (!values.email.trim()) found.email = MSG.emailRequired;
    if (values.username.trim() === user.username && values.email.trim().toLowerCase() === user.email) found.username = ACCOUNT_MSG.nothingToChange;
    if (!values.currentPassword) found.currentPassword = ACCOUNT_MSG.currentPasswordRequired;
    return found;
  };
}

/** Username and email: changed with the current password. `onSaved` gets the account as it is now. */
export function ProfileSection({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const store = useStore();
  const { errors, busy, field, onSubmit } = useForm({
    initial: { username: user.username, email: user.email, currentPassword: '' },
    validate: validate(user),
    async submit(values) {
      const username = values.username.trim();
      const email = values.email.trim();
      const saved = await updateAccount({
        ...(username === user.username ? {} : { username }),
        ...(email.toLowerCase() === user.email ? {} : { email }),
        currentPassword: values.currentPassword,
      });
      setSessionUser(store, saved);
      showToast(store, 'Your account details are saved.');
      onSaved(saved);
    },
    failed: authErrors,
  });

  return (
    <section className="settings-card" aria-labelledby="settings-profile-title">
      <h2 id="settings-profile-title">Username and email</h2>
      <form onSubmit={onSubmit} noValidate className="settings-card__form">
        {errors.server ? (
          <p className="form-error" role="alert">
            {errors.server}
          </p>
        ) : null}
        <FormField label="Username" autoComplete="username" maxLength={LIMITS.usernameMax} {...field('username')} error={errors.username} />
        <FormField label="Email" type="email" autoComplete="email" maxLength={LIMITS.email} {...field('email')} error={errors.email} />
        <FormField
          label="Current password"
          type="password"
          autoComplete="current-password"
          maxLength={LIMITS.passwordMax}
          hint="To make sure it is you."
          {...field('currentPassword')}
          error={errors.currentPassword}
        />
        <button type="submit" className="button settings-card__submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save changes'}
        </button>
      </form>
    </section>
  );
}
