// The episode's capability token goes to the browser once, as an httpOnly cookie scoped to
// that episode's playground (the agent seat's credential; never readable by page scripts).
import { cookies, headers } from 'next/headers';
import { episodeCookieName, episodeCookiePath } from '@/server/auth';

export async function setEpisodeCookie(id: string, capabilityToken: string): Promise<void> {
  const secure = (await headers()).get('x-forwarded-proto') === 'https';
  (await cookies()).set(episodeCookieName(id), capabilityToken, {
    path: episodeCookiePath(id),
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: 30 * 24 * 3600,
  });
}
