// Room names of the real-time contract (docs/realtime.md), in one place for the gateway and the relay.
export const FEED_ROOM = 'feed';
export const pinRoom = (pinId: number) => `pin:${pinId}`;
export const userRoom = (userId: number) => `user:${userId}`;
/** Private to one login session, so logging out one browser leaves the user's others connected. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
