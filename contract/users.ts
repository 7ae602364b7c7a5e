import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';
import { hasNulCharacter } from './urls.ts';
import { SiteSettings } from './invites.ts';
import { type UsernameProblem, usernameProblem } from './usernames.ts';

export const User = z
  .object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    firstName: z.string().optional(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

/** GET /api/auth/ — the signed-in user, or null for an anonymous visitor. */
// A union rather than User.nullable(): the latter would make the shared User component nullable.
// `site`: how the site is run (members only, who may sign up), so the client shows the right pages.
export const SessionBody = z.object({ user: z.union([User, z.null()]), site: SiteSettings }).meta({ id: 'Session' });
export type SessionBody = z.infer<typeof SessionBody>;

const email = z
  .string({ error: MSG.emailRequired })
  .trim()
  .min(1, { error: MSG.emailRequired })
  .max(LIMITS.email, { error: MSG.emailInvalid })
  .pipe(z.email({ error: MSG.emailInvalid }))
  .transform((value) => value.toLowerCase());

export const LoginBody = z
  .object({
    email,
    password: z.string({ error: MSG.passwordRequired }).min(1, { error: MSG.passwordRequired }).max(LIMITS.passwordMax, { error: MSG.badCredentials }),
  })
  .meta({ id: 'LoginBody' });

const USERNAME_PROBLEM_MESSAGES: Record<UsernameProblem, string> = {
  invisible: MSG.usernameInvisible,
  characters: MSG.usernameCharacters,
  start: MSG.usernameStart,
  mixedScripts: MSG.usernameMixedScripts,
};

export const SignupBody = z
  .object({
    email,
    // Normalised (NFKC) before the length rules, and stored in that form.
    username: z
      .string({ error: MSG.usernameRequired })
      .normalize('NFKC')
      .trim()
      .min(1, { error: MSG.usernameRequired })
      .min(LIMITS.usernameMin, { error: MSG.usernameLength })
      .max(LIMITS.usernameMax, { error: MSG.usernameLength })
      .superRefine((value, ctx) => {
        const problem = usernameProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: USERNAME_PROBLEM_MESSAGES[problem] });
      }),
    password: z
      .string({ error: MSG.passwordRequired })
      .min(1, { error: MSG.passwordRequired })
      .min(LIMITS.passwordMin, { error: MSG.passwordLength })
      .max(LIMITS.passwordMax, { error: `Password must be at most ${LIMITS.passwordMax} characters.` }),
    firstName: z
      .string({ error: 'First name must be text.' })
      .trim()
      .max(LIMITS.firstName, { error: `First name must be at most ${LIMITS.firstName} characters.` })
      .refine((value) => !hasNulCharacter(value), { error: 'First name contains a character that is not allowed.' })
      .optional(),
    // An invite link's code: required when SIGNUPS=invite (checked by the sign-up, 403 when not valid).
    invite: z
      .string({ error: 'invite must be text.' })
      .trim()
      .max(100, { error: 'invite must be at most 100 characters.' })
      .refine((value) => !hasNulCharacter(value), { error: 'invite contains a character that is not allowed.' })
      .optional(),
  })
  .meta({ id: 'SignupBody' });

/** GET /api/users/?q=: signed-in users look others up by the start of their username (to invite them). */
export const UserSearchQuery = z.object({
  q: z.string({ error: MSG.userSearchQueryInvalid }).normalize('NFKC').trim().min(1, { error: MSG.userSearchQueryInvalid }).max(LIMITS.usernameMax, { error: MSG.userSearchQueryInvalid }),
});

/** Up to LIMITS.userSearchResults users whose username starts with `q` (case-insensitive), by username. */
export const UserSearchResult = z.object({ users: z.array(z.object({ id: z.number().int(), username: z.string() })) }).meta({ id: 'UserSearchResult' });
export type UserSearchResult = z.infer<typeof UserSearchResult>;

/** GET /api/users/lookup?username=: a user's public profile (never their email), by exact username. */
export const UserLookupQuery = z.object({
  username: z.string({ error: MSG.usernameQueryInvalid }).normalize('NFKC').trim().min(1, { error: MSG.usernameQueryInvalid }).max(LIMITS.usernameMax, { error: MSG.usernameQueryInvalid }),
});

export const PublicUser = z.object({ id: z.number().int(), username: z.string() }).meta({ id: 'PublicUser' });
export type PublicUser = z.infer<typeof PublicUser>;

/** A profile (GET /api/users/lookup): the public user and how many pins they have (docs/profiles.md). */
export const UserProfile = PublicUser.extend({ pin_count: z.number().int() }).meta({ id: 'UserProfile' });
export type UserProfile = z.infer<typeof UserProfile>;
