// Who may act on or read a held episode: its capability token (HMAC-signed, any worker with the
// same secret accepts it), the admin token (reads only), or the WebSocket connection that reset
// it (the connection is the capability). One error message per refusal.
import { EnvServerError } from './errors';
import type { LiveEpisode, SessionStore } from './sessions';
import { matchesDigest, tokenDigest, type TokenService } from '@/server/episodes/tokens';

export function createEpisodeAccess(tokens: TokenService, sessions: SessionStore) {
  /** Whether the token is the episode's capability (a held episode remembers its verified token's digest). */
  function allows(id: string, token: string, live?: LiveEpisode): boolean {
    if (live?.issuedToken && !live.tokenDigest) live.tokenDigest = tokenDigest(live.issuedToken);
    if (live?.tokenDigest) return matchesDigest(token, live.tokenDigest);
    if (!tokens.allows(token, id)) return false;
    if (live) live.tokenDigest = tokenDigest(token);
    return true;
  }

  function checkToken(id: string, token: string | null, allowAdmin: boolean, live?: LiveEpisode): void {
    if (!token)
      throw new EnvServerError(
        'BAD_TOKEN',
        `episode "${id}": no capability token; send the token from reset as "Authorization: Bearer <token>"`,
        id,
      );
    if (allows(id, token, live)) return;
    if (tokens.isAdmin(token)) {
      if (allowAdmin) return;
      throw new EnvServerError(
        'BAD_TOKEN',
        `episode "${id}": stepping needs the episode's capability token (the admin token only reads)`,
        id,
      );
    }
    throw new EnvServerError('BAD_TOKEN', `episode "${id}": the token is not this episode's capability token`, id);
  }

  /** `connection`: the caller is the WebSocket session that reset this held episode (its capability). */
  function authorise(id: string, token: string | null, allowAdmin: boolean, connection = false): LiveEpisode {
    const live = sessions.get(id);
    if (!(connection && live.issuedToken === token)) checkToken(id, token, allowAdmin, live);
    return live;
  }

  return { authorise, checkToken };
}
