import { EpisodeNotFound } from '@/components/common/EpisodeNotFound';

export default function NotFound() {
  return <EpisodeNotFound />;
}
