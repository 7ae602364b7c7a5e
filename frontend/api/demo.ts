// The demo account (SPEC §6): the server's documented development defaults.
export const DEMO_CREDENTIALS = {
  email: 'demo@pinboard.test',
  password: 'demo-password',
} as const;
