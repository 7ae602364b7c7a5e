import { z } from 'zod';
import { INVITE_RULES } from './invite-rules.ts';
import { isoTimestamp } from './fields.ts';

// Invite links (docs/site-access.md): with SIGNUPS=invite, sign-up takes a code a member made.

export const InviteCreateBody = z
  .object({
    uses: z
      .number({ error: 'uses must be a whole number.' })
      .int({ error: 'uses must be a whole number.' })
      .min(1, { error: `uses must be 1 to ${INVITE_RULES.usesMax}.` })
      .max(INVITE_RULES.usesMax, { error: `uses must be 1 to ${INVITE_RULES.usesMax}.` })
      .default(1),
    expiresInDays: z
      .number({ error: 'expiresInDays must be a whole number.' })
      .int({ error: 'expiresInDays must be a whole number.' })
      .min(1, { error: `expiresInDays must be 1 to ${INVITE_RULES.daysMax}.` })
      .max(INVITE_RULES.daysMax, { error: `expiresInDays must be 1 to ${INVITE_RULES.daysMax}.` })
      .default(INVITE_RULES.daysDefault),
  })
  .meta({ id: 'InviteCreateBody' });

/** An invite as its maker sees it: `uses` sign-ups allowed, `remaining` of them left. */
export const Invite = z
  .object({
    id: z.number().int(),
    code: z.string(),
    /** `/signup?invite=<code>`. */
    url: z.string(),
    uses: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
    expiresAt: isoTimestamp,
    createdAt: isoTimestamp,
  })
  .meta({ id: 'Invite' });
export type Invite = z.infer<typeof Invite>;

export const InviteCreated = z.object({ invite: Invite }).meta({ id: 'InviteCreated' });
export type InviteCreated = z.infer<typeof InviteCreated>;

/** GET /api/invites: the caller's, newest first, at most INVITE_RULES.perUser. */
export const InviteList = z.object({ invites: z.array(Invite) }).meta({ id: 'InviteList' });
export type InviteList = z.infer<typeof InviteList>;

export const InviteRevoked = z.object({ message: z.string(), invite_id: z.number().int() }).meta({ id: 'InviteRevoked' });
export type InviteRevoked = z.infer<typeof InviteRevoked>;

/** What the session check also answers: how this site is run (docs/site-access.md). */
export const SiteSettings = z.object({ visibility: z.enum(['public', 'members']), signups: z.enum(['open', 'invite', 'closed']) }).meta({ id: 'SiteSettings' });
export type SiteSettings = z.infer<typeof SiteSettings>;
