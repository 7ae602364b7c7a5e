import { useStore } from 'jotai';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '../../../contract/limits.ts';
import { MSG } from '../../../contract/messages.ts';
import { deleteAccount } from '../../api/account.ts';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { FormField } from '../../components/FormField.tsx';
import { runAfterNavigation } from '../../hooks/afterNavigation.ts';
import { type FormErrors, useForm } from '../../hooks/useForm.ts';
import { liveClientFor } from '../../live/client.ts';
import { clearSession } from '../../state/session.ts';
import { showToast } from '../../state/toasts.ts';
import { authErrors } from '../authErrors.ts';

function validate({ password }: { password: string }): FormErrors {
  return password ? {} : { password: MSG.passwordRequired };
}

/** Deleting the account: the password, then a confirmation; then the home page, signed out. */
export function DeleteSection() {
  const store = useStore();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const { errors, busy, field, submitNow, values } = useForm({
    initial: { password: '' },
    validate,
    async submit({ password }) {
      // This tab's own sign-out: its socket's session:ended is expected, not news.
      liveClientFor(store)?.prepareForLogout();
      await deleteAccount(password);
      // Leave the signed-in-only page before the session goes, so it does not bounce to /login.
      runAfterNavigation(() => {
        clearSession(store);
        showToast(store, 'Your account was deleted.');
      });
      await navigate('/');
    },
    failed: authErrors,
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validate(values);
    if (Object.keys(found).length > 0) submitNow();
    else setConfirming(true);
  }

  return (
    <section className="settings-card settings-card--danger" aria-labelledby="settings-delete-title">
      <h2 id="settings-delete-title">Delete my account</h2>
      <p className="settings-card__about">Your pins, boards, comments and favorites are deleted, your tokens stop working, and you are signed out everywhere. This cannot be undone.</p>
      <form onSubmit={onSubmit} noValidate className="settings-card__form">
        {errors.server ? (
          <p className="form-error" role="alert">
            {errors.server}
          </p>
        ) : null}
        <FormField label="Password" type="password" autoComplete="current-password" maxLength={LIMITS.passwordMax} {...field('password')} error={errors.password} />
        <button type="submit" className="button button--danger settings-card__submit" disabled={busy}>
          {busy ? 'Deleting…' : 'Delete my account'}
        </button>
      </form>
      {confirming ? (
        <ConfirmModal
          title="Delete your account?"
          message="Everything you made on Pinboard will be deleted for good."
          detail="Download your data first if you want to keep a copy."
          confirmLabel="Delete my account"
          cancelLabel="Keep my account"
          onConfirm={() => {
            submitNow();
          }}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
