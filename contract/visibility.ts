// Who sees a pin (docs/who-sees-what.md). Plain values (no zod) so the client can import them too.

export const PIN_VISIBILITIES = ['public', 'private'] as const;
export type PinVisibilityValue = (typeof PIN_VISIBILITIES)[number];

/** What the pin page and the lock badge say of each. */
export const VISIBILITY_TEXT: Record<PinVisibilityValue, string> = {
  public: 'Public',
  private: "Only you and the boards' members can see this pin",
};
